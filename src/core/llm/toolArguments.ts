/**
 * Tool-call arguments arrive as JSON text (OpenAI, cloud_b deltas) or as objects (local runner).
 * Models sometimes emit broken JSON; that must not kill the turn, so the raw text is kept under
 * `_raw` for the tool layer to report back to the model.
 */
export function parseToolArguments(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    return { _raw: raw };
  } catch {
    return { _raw: raw };
  }
}
