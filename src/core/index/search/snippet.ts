import { fold, tokenize } from '../words/tokenize';

/**
 * A short one-line excerpt of `text` around the first word of the query it contains (or its
 * start), whitespace collapsed, with ellipses where it was cut.
 */
export function makeSnippet(text: string, query: string, maxChars = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  // Query words come folded (no accents); so is the text, where that keeps every offset.
  const folded = fold(flat);
  const lower = folded.length === flat.length ? folded : flat.toLowerCase();
  let at = -1;
  for (const term of tokenize(query)) {
    const found = lower.indexOf(term);
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  let start = at < 0 ? 0 : Math.max(0, at - Math.floor(maxChars / 3));
  // Start at a word boundary so the excerpt does not begin mid-word.
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  const end = Math.min(flat.length, start + maxChars);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
