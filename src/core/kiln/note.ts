import { basename, extname } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { scanMarkdownLinks, scanWikiLinks, type ScannedLink } from './linkScan';
import { contentHash, looksBinary } from './noteContent';

export { contentHash, looksBinary };

export interface NoteHeading {
  level: number;
  text: string;
  /** 1-based line in the file. */
  line: number;
}

export interface NoteLink {
  /** 'wiki' for [[target|alias]], 'markdown' for [text](target). */
  kind: 'wiki' | 'markdown';
  target: string;
  line: number;
  /** 0-based column of the link's first character (`[`, or the `!` of an embed) in its line. */
  column: number;
  /** Characters from `column` to the link's end (`]]` or `)` included). */
  length: number;
  /** 0-based column of the target text in its line (what a rename rewrites). */
  targetColumn: number;
  /** Wikilinks: after `#`, a heading or `^id` for a block. */
  fragment?: string;
  /** Wikilinks: after `|`. */
  alias?: string;
  /** `![[…]]`. */
  embed?: boolean;
}

/** A block id (`… ^id` at the end of a line), the target of `[[note#^id]]`. */
export interface NoteBlock {
  id: string;
  /** 1-based line in the file. */
  line: number;
}

/** One line of a note's body outside code fences, with inline code blanked (columns kept). */
export interface ProseLine {
  /** 0-based index in the note's lines. */
  index: number;
  prose: string;
}

/** A problem with one note; the index leaves a note with either problem out, the kiln tools still read it. */
export interface NoteProblem {
  code: 'note.frontmatter' | 'note.binary';
  message: string;
}

export interface ParsedNote {
  path: string;
  title: string;
  frontmatter: Record<string, unknown>;
  tags: string[];
  links: NoteLink[];
  headings: NoteHeading[];
  blocks: NoteBlock[];
  /** Lines of the file (CRLF normalized); index 0 is line 1. */
  lines: string[];
  /** 1-based line where the body starts (after frontmatter). */
  bodyStartLine: number;
  contentHash: string;
  problems: NoteProblem[];
  /** True when the file is not text (binary junk): nothing of it should be indexed. */
  skipped: boolean;
}

const FRONTMATTER_END = /^(---|\.\.\.)\s*$/;
const HEADING_START = /^#{1,6}[ \t]/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const BLOCK_ID = /\s\^([A-Za-z0-9-]+)\s*$/;
const INLINE_TAG = /(^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;

/** Parses a markdown note. Never throws: broken frontmatter becomes a problem and is ignored. */
export function parseNote(path: string, text: string): ParsedNote {
  const hash = contentHash(text);
  const fallbackTitle = basename(path, extname(path));
  if (looksBinary(text)) {
    return {
      path, title: fallbackTitle, frontmatter: {}, tags: [], links: [], headings: [], blocks: [], lines: [], bodyStartLine: 1,
      contentHash: hash, skipped: true,
      problems: [{ code: 'note.binary', message: `${path} is not a text file (binary content); skipped.` }],
    };
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const problems: NoteProblem[] = [];
  let frontmatter: Record<string, unknown> = {};
  let bodyStart = 0;
  const end = frontmatterEnd(lines);
  if (end > 0) {
    bodyStart = end + 1;
    const block = parseFrontmatter(lines.slice(1, end).join('\n'));
    frontmatter = block.frontmatter;
    if (block.error === 'not-a-mapping') problems.push({ code: 'note.frontmatter', message: `${path}: frontmatter is not a mapping; ignored.` });
    else if (block.error) problems.push({ code: 'note.frontmatter', message: `${path}: broken frontmatter (${block.error}); left out of the index until it is fixed.` });
  }

  const headings: NoteHeading[] = [];
  const links: NoteLink[] = [];
  const blocks: NoteBlock[] = [];
  const tags = new Set<string>(frontmatterTags(frontmatter.tags ?? frontmatter.tag));
  for (const { index: i, prose } of proseLines(lines, bodyStart)) {
    const h = heading(lines[i]);
    if (h) headings.push({ ...h, line: i + 1 });
    if (!h) for (const m of prose.matchAll(INLINE_TAG)) if (!/^\d+$/.test(m[2])) tags.add(m[2]);
    for (const m of scanWikiLinks(prose)) links.push(noteLink('wiki', m, i));
    for (const m of scanMarkdownLinks(prose)) links.push(noteLink('markdown', m, i));
    const block = BLOCK_ID.exec(prose);
    if (block) blocks.push({ id: block[1], line: i + 1 });
  }

  const fmTitle = typeof frontmatter.title === 'string' ? frontmatter.title.trim() : '';
  const title = fmTitle || headings[0]?.text || fallbackTitle;
  return {
    path, title, frontmatter, tags: [...tags], links, headings, blocks, lines, bodyStartLine: bodyStart + 1,
    contentHash: hash, problems, skipped: false,
  };
}

function noteLink(kind: NoteLink['kind'], m: ScannedLink, index: number): NoteLink {
  const link: NoteLink = { kind, target: m.target, line: index + 1, column: m.index, length: m.end - m.index, targetColumn: m.targetIndex };
  if (m.fragment !== undefined) link.fragment = m.fragment;
  if (m.alias !== undefined) link.alias = m.alias;
  if (m.embed) link.embed = true;
  return link;
}

/**
 * The body's lines outside code fences, inline code spans blanked to spaces of the same length
 * (so columns still point into the line): where links, tags, blocks and mentions are looked for.
 */
export function* proseLines(lines: readonly string[], bodyStart: number): Generator<ProseLine> {
  let fence: string | undefined;
  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence) continue;
    yield { index: i, prose: line.includes('`') ? line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)) : line };
  }
}

/**
 * An ATX heading: `#`…`######`, blank, text, an optional closing run of `#`. Trimmed by hand: the
 * regular expression `(.+?)[ \t]*#*[ \t]*$` is quadratic in a long run of blanks.
 */
export function heading(line: string): { level: number; text: string } | undefined {
  if (!HEADING_START.test(line)) return undefined;
  let level = 0;
  while (line[level] === '#') level++;
  let start = level;
  while (line[start] === ' ' || line[start] === '\t') start++;
  let end = line.length;
  while (end > start && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  while (end > start && line[end - 1] === '#') end--;
  while (end > start && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  // The text is never empty: `# ##` is a heading whose text is `#`, `#  ` one whose text is a blank.
  if (end === start) {
    if (start < line.length) end = start + 1;
    else if (start > level + 1) return { level, text: line[start - 1] };
    else return undefined;
  }
  return { level, text: line.slice(start, end) };
}

function frontmatterTags(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\s]+/) : [];
  return list.filter((t): t is string => typeof t === 'string' && t.length > 0).map((t) => t.replace(/^#/, ''));
}

/** Index of the line closing a frontmatter block that opens on line 0 (`---` … `---` or `...`), or -1. */
function frontmatterEnd(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return -1;
  return lines.findIndex((l, i) => i > 0 && FRONTMATTER_END.test(l));
}

function parseFrontmatter(yaml: string): { frontmatter: Record<string, unknown>; error?: string } {
  try {
    const parsed = parseYaml(yaml) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { frontmatter: parsed as Record<string, unknown> };
    return { frontmatter: {}, error: parsed == null ? undefined : 'not-a-mapping' };
  } catch (error) {
    return { frontmatter: {}, error: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
}

/** Wikilink targets of a note, each once, in order (what `read_metadata` reports as `links`). */
export function wikiLinkTargets(note: Pick<ParsedNote, 'links'>): string[] {
  return [...new Set(note.links.filter((link) => link.kind === 'wiki').map((link) => link.target))];
}

/** A note split for rewriting: its frontmatter and its body text exactly as in the file. */
export interface NoteParts {
  frontmatter: Record<string, unknown>;
  /** Whether the file had a (readable) frontmatter block, so rewriting it keeps the file's shape. */
  hasFrontmatter: boolean;
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyStartLine: number;
}

/**
 * The frontmatter rule of parseNote, for writers: the body keeps its bytes (line endings included).
 * Broken YAML stays in the body untouched rather than lost.
 */
export function splitNote(text: string): NoteParts {
  const none: NoteParts = { frontmatter: {}, hasFrontmatter: false, body: text, bodyStartLine: 1 };
  const lines = text.split(/\r\n|\r|\n/);
  const end = frontmatterEnd(lines);
  if (end <= 0) return none;
  const block = parseFrontmatter(lines.slice(1, end).join('\n'));
  if (block.error) return none;
  // Offset just past the closing line's break: count end + 1 breaks.
  const breaks = /\r\n|\r|\n/g;
  let offset = 0;
  for (let seen = 0; seen <= end; seen++) {
    const match = breaks.exec(text);
    offset = match ? match.index + match[0].length : text.length;
    if (!match) break;
  }
  return { frontmatter: block.frontmatter, hasFrontmatter: true, body: text.slice(offset), bodyStartLine: end + 2 };
}

export function joinNote(frontmatter: Record<string, unknown>, body: string): string {
  if (Object.keys(frontmatter).length === 0) return body;
  return `---\n${stringifyYaml(frontmatter).trimEnd()}\n---\n${body}`;
}
