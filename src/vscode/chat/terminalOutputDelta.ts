/**
 * What of an agent terminal's output is new since the last event, for a mirror that only appends:
 * each `terminal` event carries the output's tail (cut to the agent's `outputByteLimit`), so the
 * new part is what follows the text seen before — found by its last lines when the head was cut.
 * Free of the editor API, so it is tested alone.
 */
const ANCHOR_CHARS = 256;

/** The text to append after `before` was shown, to show `after`; `cut` when some output in between was lost. */
export function outputDelta(before: string, after: string): { text: string; cut: boolean } {
  if (after.startsWith(before)) return { text: after.slice(before.length), cut: false };
  const anchor = before.slice(-ANCHOR_CHARS);
  const at = anchor ? after.lastIndexOf(anchor) : -1;
  if (at >= 0) return { text: after.slice(at + anchor.length), cut: false };
  return { text: after, cut: before.length > 0 };
}

/** A terminal wants CRLF line ends; lone LFs from a command's output would stair-step. */
export function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
