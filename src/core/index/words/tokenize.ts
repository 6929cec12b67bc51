import { stemmer } from 'stemmer';
const TOKEN = /[\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const MARKS = /\p{M}+/gu;

/**
 * Lower-cased words and numbers of any script, accents folded (`café` and `cafe` are one word); the
 * same split for notes and queries. Chinese, Japanese and Korean are written without spaces, so a
 * run of their characters becomes its overlapping character pairs (`日本語` → `日本`, `本語`): a
 * query word then matches inside a longer run, as in search engines for those languages.
 */
export function tokenize(text: string): string[] {
  return tokenizeFolded(fold(text));
}

/** `tokenize` of a text already folded (a caller that tested the folded text first). */
export function tokenizeFolded(folded: string): string[] {
  const words = folded.match(TOKEN) ?? [];
  if (!CJK.test(folded)) return words;
  const out: string[] = [];
  for (const word of words) {
    if (!CJK.test(word)) {
      out.push(word);
      continue;
    }
    for (const run of word.match(CJK_RUNS) ?? []) {
      const chars = [...run];
      if (!CJK.test(run) || chars.length === 1) out.push(run);
      else for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    }
  }
  return out;
}

/** Lower case without accents (NFD, marks dropped, then NFC so Hangul syllables come back whole). */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // Plain ASCII has nothing to fold: skip the two normalizations.
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(lower) ? lower : lower.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

const PLAIN_WORD = /^[a-z]{4,}$/;

/**
 * The words search matches on: `tokenize`, with English words reduced to their stem (Porter) so
 * `conversions` finds `convert` and `generates` finds `generate`. Only plain a–z words of four
 * letters or more are stemmed; other scripts, numbers and short words stay as written.
 */
export function searchTerms(text: string): string[] {
  return tokenize(text).map(searchTerm);
}

/**
 * A string that every text holding a word whose search term is `term` contains once folded, so a
 * text without it cannot match the term (ranking skips tokenizing it). Porter rewrites at most the
 * last two letters of a stem into letters its word does not have there (`possibly` → `possibl`,
 * `hoping` → `hope`): a stem less its last two letters opens every word it came from. Any other
 * term is a word as written.
 */
export function termProbe(term: string): string {
  return /^[a-z]+$/.test(term) ? term.slice(0, Math.max(0, term.length - 2)) : term;
}

/** Stems already computed: ranking sections re-reads the same words for every query. */
const stems = new Map<string, string>();
const MAX_STEMS = 100_000;

/** The search term of one word of `tokenize` (its stem, or the word). */
export function searchTerm(word: string): string {
  if (!PLAIN_WORD.test(word)) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, (stemmed = stemmer(word)));
  }
  return stemmed;
}
