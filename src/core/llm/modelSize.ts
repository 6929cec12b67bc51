/**
 * Model size for size-aware prompts (DESIGN.md decision 6, spec 2.3): the parameter count comes
 * from the runner's own metadata where it has it (Ollama `details.parameter_size`, e.g. "3.2B",
 * "494.03M"), else from the model name (`qwen2.5:0.5b` → 0.5 B). Unknown counts as large, so a
 * capable hosted model is never starved of tools by a guess.
 */

/** Models strictly under this many billion parameters count as small. */
export const SMALL_MODEL_BILLIONS = 4;

/** Parses "3.2B", "494.03M", "7b", "1.5T" into billions; undefined when it is not a size. */
export function parseParameterSize(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmbt])?\s*$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? 'b').toLowerCase();
  const scale = unit === 'k' ? 1e-6 : unit === 'm' ? 1e-3 : unit === 't' ? 1e3 : 1;
  // Three decimals of a billion (a million parameters) is all the precision anyone reads.
  return Math.round(value * scale * 1000) / 1000;
}

/**
 * Billions of parameters read from a model name: the first `<number>b` (or `<number>m`) that is not
 * part of a longer number or word. `llama3.1:8b-instruct` → 8, `gemma3:270m` → 0.27, `gpt-4o` → undefined.
 */
export function parameterBillionsFromName(model: string): number | undefined {
  const match = /(?<![\d.])(\d+(?:\.\d+)?)([bm])(?![a-z])/i.exec(model);
  if (!match) return undefined;
  const value = Number(match[1]);
  return match[2].toLowerCase() === 'm' ? value / 1000 : value;
}

/** True only for a known count under 4 B; unknown (undefined) is treated as large. */
export function isSmallModel(parameterBillions: number | undefined): boolean {
  return parameterBillions !== undefined && parameterBillions < SMALL_MODEL_BILLIONS;
}

/** Metadata first, then the name. */
export function modelParameterBillions(model: string, metadataSize?: string): number | undefined {
  return parseParameterSize(metadataSize) ?? parameterBillionsFromName(model);
}
