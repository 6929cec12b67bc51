/**
 * Shows every config problem as a diagnostic (source "hearth", code = problem code) on the key's
 * line and column in the file it is in; problems without a file (environment variables) go to the
 * log. Replacing the whole set on each reload clears fixed problems.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ConfigProblem } from '../../core/config/problem';
import type { Logger } from '../../core/host';
import { fixRange, problemRange } from './problemRange';

export const DIAGNOSTIC_SOURCE = 'hearth';

export class ConfigDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  /** The last problems written to the log, so an unchanged reload does not repeat them. */
  private loggedFileless = '';
  /** "Did you mean" answers by file: the diagnostic's code and line, the text's range and the replacement. */
  private fixes = new Map<string, { code: string; line: number; range: vscode.Range; text: string }[]>();

  constructor(private readonly log: Logger) {}

  update(problems: readonly ConfigProblem[]): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const fixes = new Map<string, { code: string; line: number; range: vscode.Range; text: string }[]>();
    const fileless: ConfigProblem[] = [];
    const texts = new Map<string, string | undefined>();
    for (const problem of problems) {
      if (!problem.file) {
        fileless.push(problem);
        continue;
      }
      if (!texts.has(problem.file)) texts.set(problem.file, this.textOf(problem.file));
      const r = problemRange(problem, texts.get(problem.file));
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter),
        problem.message,
        problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.source = DIAGNOSTIC_SOURCE;
      diagnostic.code = problem.code;
      const fix = fixRange(problem, texts.get(problem.file));
      if (fix && problem.fix) {
        const list = fixes.get(problem.file) ?? [];
        list.push({ code: problem.code, line: r.startLine, range: new vscode.Range(fix.startLine, fix.startCharacter, fix.endLine, fix.endCharacter), text: problem.fix.with });
        fixes.set(problem.file, list);
      }
      const list = byFile.get(problem.file) ?? [];
      list.push(diagnostic);
      byFile.set(problem.file, list);
    }
    this.fixes = fixes;
    this.collection.clear();
    for (const [file, diagnostics] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
    this.logFileless(fileless);
  }

  /** The "Did you mean" replacements for these diagnostics of `file` (matched by code and line). */
  fixesFor(file: string, diagnostics: readonly vscode.Diagnostic[]): { diagnostic: vscode.Diagnostic; range: vscode.Range; text: string }[] {
    const known = this.fixes.get(file) ?? [];
    return diagnostics.flatMap((diagnostic) => {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) return [];
      const fix = known.find((f) => f.code === diagnostic.code && f.line === diagnostic.range.start.line);
      return fix ? [{ diagnostic, range: fix.range, text: fix.text }] : [];
    });
  }

  /** The file's text as the user sees it: the open document if any (it may be newer), else disk. */
  private textOf(file: string): string | undefined {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
    if (open) return open.getText();
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  private logFileless(problems: ConfigProblem[]): void {
    const key = JSON.stringify(problems.map((p) => [p.keyPath, p.code, p.message]));
    if (key === this.loggedFileless) return;
    this.loggedFileless = key;
    for (const p of problems) {
      const line = `config ${p.severity}: ${p.keyPath ? `${p.keyPath}: ` : ''}${p.message}`;
      if (p.severity === 'error') this.log.error(line);
      else this.log.warn(line);
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}
