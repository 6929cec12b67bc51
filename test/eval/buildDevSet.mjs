// Builds the search evaluation set from public material on this machine: the README of every
// top-level package in node_modules becomes a note of test/eval/kiln/ (truncated, so the set stays
// small), queried by its package.json `description` and by a sentence of one of its sections. Half
// the packages (by a hash of the name) go to dev.json, the others to heldout.json: ranking is tuned
// on dev only, held-out judges it. Deterministic: the same node_modules gives the same files.
//   node test/eval/buildDevSet.mjs [node_modules]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const modules = process.argv[2] ?? join(here, '../../node_modules');
const kiln = join(here, 'kiln');
const MAX_CHARS = 4000;
const MIN_CHARS = 400;
const GENERIC = /^(license|licence|install|installation|contributing|contributors|usage|api|tests?|testing|support|changelog|changes|author|authors|credits|related|see also|table of contents|contents|sponsors?|backers|security|faq|example|examples|getting started|maintainers?|acknowledg)/i;

function packages() {
  const dirs = [];
  for (const name of readdirSync(modules).sort()) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const sub of readdirSync(join(modules, name)).sort()) dirs.push([`${name}/${sub}`, join(modules, name, sub)]);
    else dirs.push([name, join(modules, name)]);
  }
  return dirs;
}

function readme(dir) {
  let files;
  try {
    files = readdirSync(dir);
  } catch {
    return undefined;
  }
  const file = files.find((f) => /^readme\.(md|markdown)$/i.test(f));
  return file ? readFileSync(join(dir, file), 'utf8') : undefined;
}

/** Cut at a line boundary under MAX_CHARS, never inside a code fence left open. */
function truncate(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let size = 0;
  let fence = false;
  for (const line of lines) {
    if (size + line.length + 1 > MAX_CHARS) break;
    // Base64 images and minified one-liners are noise, not content.
    if (line.length > 600) continue;
    out.push(line);
    size += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
  }
  if (fence) out.push('```');
  return `${out.join('\n').trimEnd()}\n`;
}

/** The first prose sentence of a non-generic `##`/`###` section, 6–14 words, markup stripped. */
function sectionQuery(text, seed) {
  const lines = text.split('\n');
  const sections = [];
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fence = !fence;
    const h = !fence && /^#{2,3}\s+(.+?)\s*#*$/.exec(lines[i]);
    if (h && !GENERIC.test(h[1].replace(/[^\p{L}\s]/gu, '').trim())) sections.push(i);
  }
  if (sections.length === 0) return undefined;
  for (let k = 0; k < sections.length; k++) {
    const start = sections[(seed + k) % sections.length];
    let inFence = false;
    for (let i = start + 1; i < lines.length && !/^#{1,6}\s/.test(lines[i]); i++) {
      if (/^\s*(```|~~~)/.test(lines[i])) inFence = !inFence;
      const line = lines[i].trim();
      if (inFence || !line || /^[|<>!\-*+\d`[]/.test(line)) continue;
      const plain = line.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_]/g, '');
      const sentence = plain.split(/(?<=[.!?])\s/)[0];
      const words = sentence.split(/\s+/).filter(Boolean);
      if (words.length < 6) continue;
      return words.slice(0, 14).join(' ').replace(/[.:,;]$/, '');
    }
  }
  return undefined;
}

const hash = (s) => createHash('sha256').update(s).digest().readUInt32BE(0);

rmSync(kiln, { recursive: true, force: true });
mkdirSync(kiln, { recursive: true });
const seen = new Set();
const dev = [];
const heldout = [];
const bodies = [];
const candidates = [];
let notes = 0;
for (const [name, dir] of packages()) {
  if (!existsSync(join(dir, 'package.json'))) continue;
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  const text = readme(dir);
  const description = typeof pkg.description === 'string' ? pkg.description.trim() : '';
  if (!text || text.length < MIN_CHARS) continue;
  const body = truncate(text);
  const file = `${name.replace('/', '__')}.md`;
  writeFileSync(join(kiln, file), body);
  bodies.push(body.toLowerCase());
  notes++;
  const split = hash(name) % 2 === 0 ? dev : heldout;
  // Descriptions shared by several packages (a family's boilerplate) cannot name one note.
  const key = description.toLowerCase();
  if (description.split(/\s+/).length >= 3 && !seen.has(key)) {
    seen.add(key);
    split.push({ query: description, note: file, kind: 'description' });
  }
  const section = sectionQuery(body, hash(`${name}#section`));
  if (section) candidates.push({ split, query: section, note: file });
}
// A section sentence found in more than one note (licence and support boilerplate of a family of
// packages) has no single right answer: left out.
for (const { split, query, note } of candidates) {
  const words = query.toLowerCase().split(/\s+/).slice(0, 6).join(' ');
  if (seen.has(query.toLowerCase()) || bodies.filter((b) => b.includes(words)).length !== 1) continue;
  seen.add(query.toLowerCase());
  split.push({ query, note, kind: 'section' });
}
writeFileSync(join(here, 'dev.json'), `${JSON.stringify(dev, null, 1)}\n`);
writeFileSync(join(here, 'heldout.json'), `${JSON.stringify(heldout, null, 1)}\n`);
console.log(`${notes} notes; dev ${dev.length} queries, held-out ${heldout.length}`);
