import { lazyCrypto } from '../lazyCrypto';

/**
 * What is known of a note's text before it is parsed: its content hash (what the index compares)
 * and whether it is text at all. Apart from note.ts so an index run over unchanged notes loads no
 * markdown or YAML parser.
 */
export function contentHash(text: string): string {
  return lazyCrypto().createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Text with NUL bytes or mostly control/replacement characters is not a note: report and skip it. */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.slice(0, 8192);
  if (sample.length === 0) return false;
  let bad = 0;
  for (const ch of sample) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12)) bad++;
  }
  return bad / sample.length > 0.1;
}
