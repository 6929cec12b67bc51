import { createTwoFilesPatch } from 'diff';

const MAX_DIFF_BYTES = 2 * 1024 * 1024;

function asText(bytes: Uint8Array | null): string | undefined {
  if (bytes === null) return '';
  if (bytes.byteLength > MAX_DIFF_BYTES || bytes.includes(0)) return undefined;
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A unified diff of one file change, for the terminal and the chat's diff card. Binary or very large
 * contents (a 20 MB note) are summarised instead of diffed, so showing a change never stalls.
 */
export function unifiedDiff(path: string, before: Uint8Array | null, after: Uint8Array | null): string {
  const oldText = asText(before);
  const newText = asText(after);
  if (oldText === undefined || newText === undefined) {
    return `--- a/${path}\n+++ b/${path}\n(binary or larger than 2 MB: ${before?.byteLength ?? 0} → ${after?.byteLength ?? 0} bytes)\n`;
  }
  // jsdiff starts with a row of "=" (from `Index:` patches); git-style output has none.
  return createTwoFilesPatch(before === null ? '/dev/null' : `a/${path}`, after === null ? '/dev/null' : `b/${path}`, oldText, newText, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
}
