import type { ScannedNote } from '../../kiln/kilnScanner';
import { isPatternQuery, literalMatcher } from '../../kiln/textSearch';
import { StatCache } from '../statCache';
import { DiskLexicon } from '../words/diskLexicon';
import { readLexicalFile } from '../words/lexicalFile';
import type { NoteBm25Snapshot } from '../words/noteBm25Snapshot';
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
  const [lexical, stats] = await Promise.all([wordIndex(indexDir, words.map(searchTerm)), StatCache.load(indexDir)]);
  if (!lexical) return undefined;
  const { hashes, holding } = lexical;
  const matches = literalMatcher(query);
  const oneLine = !query.includes('\n');
  return (note) => {
    const hash = hashes.get(note.path);
    const entry = stats.entry(note.path);
    if (hash === undefined || !entry || entry[0] !== note.size || entry[1] !== note.mtimeMs || entry[2] !== hash || entry[3] === undefined) return true;
    // A literal without a newline is in some line of the text exactly when it is in the text.
    return holding.has(note.path) || (oneLine ? matches(entry[3]) : entry[3].split('\n').some(matches));
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

/**
 * Each indexed note's hash, and the notes holding every term: read by position (only these terms'
 * postings; at 50k notes the whole file is 55 MB), or from the whole file when it is of an earlier
 * version. Undefined when there is none or it cannot be used (the notes are all read then).
 */
async function wordIndex(indexDir: string, terms: string[]): Promise<{ hashes: Map<string, string>; holding: Set<string> } | undefined> {
  try {
    const disk = await DiskLexicon.open(indexDir, null);
    if (disk) {
      try {
        return { hashes: disk.hashes(), holding: disk.notesHoldingAll(terms) };
      } finally {
        await disk.close();
      }
    }
    const whole = await readLexicalFile(indexDir);
    return whole && { hashes: whole.hashes, holding: notesHoldingAll(whole.snapshot, terms) };
  } catch {
    return undefined;
  }
}

/** Paths of the indexed notes holding every term (none when a term is not indexed at all). */
function notesHoldingAll(snapshot: NoteBm25Snapshot, terms: string[]): Set<string> {
  const { terms: list, offsets, postDocs, notes } = snapshot;
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
