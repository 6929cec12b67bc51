/**
 * "Did you mean …" for misspelt keys: the closest known key by optimal-string-alignment distance
 * (a swap of two neighbouring letters counts as one edit), case-insensitive.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/** The best suggestion among `known`, or undefined when nothing is close enough to be a typo. */
export function didYouMean(unknown: string, known: readonly string[]): string | undefined {
  // Short keys tolerate one edit, longer ones about a third of their length.
  const limit = Math.max(1, Math.min(3, Math.floor(unknown.length / 3)));
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(unknown, key);
    if (distance <= limit && (!best || distance < best.distance)) best = { key, distance };
  }
  if (best) return best.key;
  // `chat_temperature` for `temperature`, `maxtokens` for `max_tokens`: compare without separators.
  const squash = (k: string) => k.toLowerCase().replace(/[_-]/g, '');
  return known.find((key) => squash(key) === squash(unknown));
}
