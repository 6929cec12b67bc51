import type { ScannedNote } from '../../kiln/kilnScanner';
import { isPatternQuery, literalMatcher } from '../../kiln/textSearch';
import { StatCache } from '../statCache';
import { readLexicalFile, type LexicalFile } from '../words/lexicalFile';
import { searchTerm } from '../words/tokenize';

/**
 * The word index as a prefilter for `--mode text` (a literal query): which notes can hold the query
 * without reading them. A note is left out only when the index vouches for all of its text:
 *  - it is unchanged since it was indexed (its size and time are the ones the stat cache recorded
 *    with the very hash the word index holds for it);
 *  - the run that indexed it recorded its lines outside the chunks (the frontmatter), and none of
 *    them holds the query, and no line of it was cut between two chunks;
 *  - a whole word of the query is not among its indexed words.
 * A whole word is one bounded inside the query by ASCII punctuation or space on both sides, itself
 * plain ASCII letters and digits: every line holding the query then holds it as a word of its own,
 * which the tokenizer splits and stems exactly as it did for the note. A word at the query's edge
 * may be part of a longer one (`pars` of `parsing`), whose stem need not contain it, so it filters
 * nothing; nor do patterns. Any other note — changed, unknown, never indexed — is read as before,
 * so the results are a full scan's.
 */
export async function textPrefilter(indexDir: string, query: string): Promise<((note: ScannedNote) => boolean) | undefined> {
  if (isPatternQuery(query)) return undefined;
  const words = wholeWords(query.toLowerCase());
  if (words.length === 0) return undefined;
  const [lexical, stats] = await Promise.all([readLexicalFile(indexDir).catch(() => undefined), StatCache.load(indexDir)]);
  if (!lexical) return undefined;
  const holding = notesHoldingAll(lexical, words.map(searchTerm));
  const matches = literalMatcher(query);
  return (note) => {
    const hash = lexical.hashes.get(note.path);
    const entry = stats.entry(note.path);
    if (hash === undefined || !entry || entry[0] !== note.size || entry[1] !== note.mtimeMs || entry[2] !== hash || entry[3] === undefined) return true;
    return holding.has(note.path) || entry[3].split('\n').some(matches);
  };
}

const ASCII_WORD = /[a-z0-9]+/g;
/** ASCII (the match is maximal, so not a letter or digit): never folded, never part of a word. */
const isAsciiSeparator = (char: string | undefined) => char !== undefined && char.charCodeAt(0) < 0x80;

/** The query's (lower-cased) ASCII words bounded on both sides by ASCII characters that are not letters or digits. */
export function wholeWords(needle: string): string[] {
  const words: string[] = [];
  for (const match of needle.matchAll(ASCII_WORD)) {
    const before = needle[match.index - 1];
    const after = needle[match.index + match[0].length];
    if (isAsciiSeparator(before) && isAsciiSeparator(after)) words.push(match[0]);
  }
  return words;
}

/** Paths of the indexed notes holding every term (none when a term is not indexed at all). */
function notesHoldingAll(lexical: LexicalFile, terms: string[]): Set<string> {
  const { terms: list, offsets, postDocs, notes } = lexical.snapshot;
  const ranges = [...new Set(terms)].map((term) => {
    const id = list.indexOf(term);
    return id < 0 ? [0, 0] : [offsets[id], offsets[id + 1]];
  });
  ranges.sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
  const counts = new Uint32Array(notes.length);
  ranges.forEach(([from, to], k) => {
    for (let p = from; p < to; p++) if (counts[postDocs[p]] === k) counts[postDocs[p]] = k + 1;
  });
  const holding = new Set<string>();
  counts.forEach((count, doc) => {
    if (count === ranges.length) holding.add(notes[doc].path);
  });
  return holding;
}
