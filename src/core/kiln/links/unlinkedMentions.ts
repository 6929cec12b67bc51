import { basename } from 'node:path';
import { scanMarkdownLinks, scanWikiLinks } from '../linkScan';
import { proseLines, type ParsedNote } from '../note';
import type { GraphNote } from './linkGraph';

/** A place where a note names another in plain text, not linked. */
export interface Mention {
  /** The note holding the mention. */
  source: string;
  /** 1-based line and 0-based column of the mention in the source's file. */
  line: number;
  column: number;
  /** The words as written there. */
  text: string;
  /** The line, trimmed (at most 240 characters). */
  context: string;
}

/** Shorter names would match everyday words everywhere. */
const MIN_NAME_CHARS = 3;
const MAX_NAMES = 32;

/** The names a note is mentioned by: its title, file name and aliases, each once (case-insensitively), longest first. */
export function mentionNames(note: Pick<GraphNote, 'path' | 'title' | 'aliases'>): string[] {
  const seen = new Map<string, string>();
  for (const name of [note.title, basename(note.path).replace(/\.md$/i, ''), ...note.aliases]) {
    const trimmed = name.trim();
    if (trimmed.length >= MIN_NAME_CHARS && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()].sort((a, b) => b.length - a.length).slice(0, MAX_NAMES);
}

/** One expression matching any of `names` as whole words (letters and digits of any script), case-insensitive. */
export function mentionPattern(names: readonly string[]): RegExp | undefined {
  if (names.length === 0) return undefined;
  const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/**
 * The mentions of any of `names` in one parsed note: whole words, case-insensitive, outside
 * frontmatter, code (fenced or inline) and existing links of either kind.
 */
export function mentionsIn(note: ParsedNote, pattern: RegExp, limit = Infinity): Mention[] {
  const out: Mention[] = [];
  for (const { index, prose } of proseLines(note.lines, note.bodyStartLine - 1)) {
    if (out.length >= limit) break;
    const text = blankLinks(prose);
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      out.push({ source: note.path, line: index + 1, column: m.index, text: m[0], context: note.lines[index].trim().slice(0, 240) });
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** The line with every link (wiki, embed, markdown) blanked, columns kept. */
function blankLinks(prose: string): string {
  if (!prose.includes('[')) return prose;
  let out = prose;
  for (const link of [...scanWikiLinks(prose), ...scanMarkdownLinks(prose)]) out = out.slice(0, link.index) + ' '.repeat(link.end - link.index) + out.slice(link.end);
  return out;
}

/**
 * The wikilink that replaces a mention: `[[Name]]` when the words are the link name as written,
 * else `[[Name|words]]`, so the sentence reads the same after linking.
 */
export function mentionLink(targetPath: string, linkName: string, words: string): string {
  const name = linkName || basename(targetPath).replace(/\.md$/i, '');
  return words === name ? `[[${name}]]` : `[[${name}|${words}]]`;
}
