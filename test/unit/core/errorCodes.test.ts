// Every error and problem code Hearth writes is `area.snake_case` (issue 14): codes appear in
// `--json` output and transcripts, so one spelling is part of the contract. The TypeScript type
// (`ErrorCode` in core/errors.ts) pins the area; this reads the source to check the rest, since a
// template literal type cannot say "snake_case".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ERROR_AREAS, errorCode, HearthError } from '../../../src/core/errors';

const SRC = join(import.meta.dirname, '../../../src');
const CODE = /^([a-z]+)\.[a-z]+(_[a-z]+)*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

interface Found {
  code: string;
  where: string;
}

/** Error classes whose constructor takes the code first (`new X('area.code', message)`), HearthError's way. */
function codeFirstClasses(sources: ts.SourceFile[]): Set<string> {
  const names = new Set(['HearthError']);
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      const ctor = node.members.find(ts.isConstructorDeclaration);
      if (ctor?.parameters[0]?.name.getText() === 'code') names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  sources.forEach(visit);
  return names;
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/**
 * The string literals written as codes: `*Code` union members and `code` property types, `code: '…'`,
 * the code argument of code-first errors (`new X(…)`, `super(…)` in a HearthError subclass) and of
 * `errorCode()`, `problem()` / `report()`.
 */
function codesIn(source: ts.SourceFile, codeFirst: Set<string>): Found[] {
  const file = source.fileName;
  const found: Found[] = [];
  const add = (written: ts.Node | undefined) => {
    let node = written;
    // `'x.y' satisfies TrustErrorCode`, `'x.y' as const`: the literal inside.
    while (node && (ts.isSatisfiesExpression(node) || ts.isAsExpression(node) || ts.isParenthesizedExpression(node))) node = node.expression;
    if (!node || !ts.isStringLiteralLike(node)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push({ code: node.text, where: `${relative(SRC, file)}:${line + 1}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isTypeAliasDeclaration(node) && /Code$/.test(node.name.text)) {
      const members = ts.isUnionTypeNode(node.type) ? node.type.types : [node.type];
      for (const member of members) if (ts.isLiteralTypeNode(member)) add(member.literal);
    }
    // `code: '…'` in an object literal, except zod's own issue code (`ctx.addIssue({ code: 'custom' })`).
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'code') {
      const call = node.parent.parent;
      const isZodIssue = ts.isCallExpression(call) && call.expression.getText(source).endsWith('addIssue');
      if (!isZodIssue) add(node.initializer);
    }
    if (ts.isPropertySignature(node) && node.name.getText(source) === 'code' && node.type) {
      const members = ts.isUnionTypeNode(node.type) ? node.type.types : [node.type];
      for (const member of members) if (ts.isLiteralTypeNode(member)) add(member.literal);
    }
    if (ts.isNewExpression(node) && codeFirst.has(node.expression.getText(source))) add(node.arguments?.[0]);
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (callee === 'super' && extendsCodeFirst(node, codeFirst)) add(node.arguments[0]);
      if (callee === 'errorCode') add(node.arguments[1]);
      // Config problems: locator.problem(path, code, …) / this.report(path, code, …).
      if (/\.(problem|report)$/.test(callee)) add(node.arguments[1]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function extendsCodeFirst(node: ts.Node, codeFirst: Set<string>): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isClassDeclaration(at)) return (at.heritageClauses ?? []).some((clause) => clause.types.some((type) => codeFirst.has(type.expression.getText())));
  }
  return false;
}

test('every error and problem code in src is area.snake_case, with a known area', () => {
  const sources = sourceFiles(SRC).map((file) => parse(file, readFileSync(file, 'utf8')));
  const codeFirst = codeFirstClasses(sources);
  const found = sources.flatMap((source) => codesIn(source, codeFirst));
  // The scan must see the codes it is about, or a change to it would pass vacuously.
  const codes = new Set(found.map((f) => f.code));
  for (const known of ['trust.untrusted_folder', 'config.toml_syntax', 'config.untrusted_key', 'config.env_override', 'llm.unreachable', 'acp.unknown_agent', 'index.kiln_missing', 'fs.outside_root']) {
    assert.ok(codes.has(known), `the scan finds ${known}`);
  }
  const bad = found.filter((f) => !CODE.test(f.code) || !(ERROR_AREAS as readonly string[]).includes(CODE.exec(f.code)![1]));
  assert.deepEqual(bad.map((f) => `${f.where}: '${f.code}'`), []);
});

test('the scan catches the spellings issue 14 named', () => {
  const planted = `
    type FooCode = 'llm-timeout' | 'gateway.ok';
    class FooError extends HearthError { constructor() { super('acp.unknown-agent', 'm'); } }
    const p = { code: 'upstream-down' };
    class BarError extends HearthError { constructor() { super('trust.untrusted-folder' satisfies TrustErrorCode, 'm'); } }
    throw new Error('a message, not a code');
    locator.problem(['x'], 'toml-syntax', 'error', 'm');
    throw new EmbeddingError('Index.KilnMissing', 'm');
    ctx.addIssue({ code: 'custom', message: 'zod issue codes are zod's' });
  `;
  const source = parse(join(SRC, 'planted.ts'), planted);
  const bad = codesIn(source, codeFirstClasses([source]).add('EmbeddingError')).filter((f) => !CODE.test(f.code));
  assert.deepEqual(bad.map((f) => f.code), ['llm-timeout', 'acp.unknown-agent', 'upstream-down', 'trust.untrusted-folder', 'toml-syntax', 'Index.KilnMissing']);
});

test("a library's own error code (ECONNRESET) is never passed off as Hearth's", () => {
  const socket = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  assert.equal(errorCode(socket, 'llm.request_failed'), 'llm.request_failed');
  assert.equal(errorCode(new HearthError('llm.unreachable', 'down'), 'llm.request_failed'), 'llm.unreachable');
});
