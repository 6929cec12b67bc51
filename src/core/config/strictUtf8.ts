/**
 * A TOML document is UTF-8 (TOML 1.0, "Spec"): a byte that is not is an error, never a U+FFFD that
 * then parses. The fatal decoder answers yes or no; where the first bad byte is, for the problem's
 * line and column, is found here by walking the encoding's rules (RFC 3629, table 3-7 of Unicode).
 */

export type StrictUtf8 =
  | { ok: true; text: string }
  | {
      ok: false;
      /** Offset where the first ill-formed sequence starts. */
      offset: number;
      /**
       * 1-based line of that sequence and its column in UTF-16 code units, as the parser's errors, the
       * key locator and the editor's positions count (the bytes before it are valid).
       */
      line: number;
      column: number;
      /** Its first byte. */
      byte: number;
    };

/** Decodes `bytes` as UTF-8, refusing any ill-formed sequence; a byte order mark is kept (the caller strips exactly one). */
export function decodeStrictUtf8(bytes: Uint8Array): StrictUtf8 {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
    let line = 1;
    for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(lineStart, offset));
    return { ok: false, offset, line, column: before.length + 1, byte: bytes[offset] ?? 0 };
  }
}

/** The offset where the first ill-formed sequence starts (bytes.length if none). */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Continuation bytes needed, and the allowed range of the first one (no overlongs, no surrogates, nothing past U+10FFFF).
    let need: number;
    let [low, high] = [0x80, 0xbf];
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
