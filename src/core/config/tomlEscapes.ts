/** TOML basic-string escapes, decoded for the key locator (tomlScanner.ts); smol-toml decodes values itself. */

const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' };
const HEX_DIGITS: Record<string, number> = { u: 4, U: 8, x: 2 };

/**
 * The basic-string escape at `offset` (a backslash): its text and its length in the source. An
 * escape TOML does not know, or a code point that is not a scalar value, is smol-toml's to reject;
 * here it stands for itself.
 */
export function escapeAt(src: string, offset: number): [string, number] {
  const kind = src[offset + 1] ?? '';
  const simple = SIMPLE_ESCAPES[kind];
  if (simple !== undefined) return [simple, 2];
  const digits = HEX_DIGITS[kind];
  const hex = digits === undefined ? '' : src.slice(offset + 2, offset + 2 + digits);
  if (digits !== undefined && hex.length === digits && /^[0-9A-Fa-f]+$/.test(hex)) {
    const code = parseInt(hex, 16);
    if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return [String.fromCodePoint(code), 2 + digits];
  }
  return [kind, 2];
}
