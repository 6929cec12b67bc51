/**
 * Fills defaults into a merged, per-key-validated config by walking the schema rather than parsing
 * with it: parsing would also run cross-key refinements (a custom provider's endpoint, unique
 * server names), which are reported as problems by the loader instead of failing the whole config.
 */
import type { z } from 'zod/mini';
import { defOf, defaultOf, kindOf, shapeOf, unionOptions, unwrap } from './zodShape';
import { isTable } from './validateLayer';

export function fillDefaults(schema: z.ZodMiniType, value: unknown): unknown {
  const kind = kindOf(schema);
  if (kind === 'object') {
    const table = isTable(value) ? value : {};
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(shapeOf(schema))) {
      if (table[key] !== undefined) out[key] = fillDefaults(child, table[key]);
      else {
        const fallback = defaultOf(child);
        if (fallback !== undefined) out[key] = fallback;
      }
    }
    return out;
  }
  if (kind === 'record' && isTable(value)) {
    const valueType = defOf(unwrap(schema)).valueType!;
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, fillDefaults(valueType, child)]));
  }
  if (kind === 'array' && Array.isArray(value)) {
    const element = defOf(unwrap(schema)).element!;
    return kindOf(element) === 'array' || kindOf(element) === 'object' || kindOf(element) === 'union' ? value.map((item) => fillDefaults(element, item)) : value;
  }
  if (kind === 'union' && isTable(value)) {
    const union = unionOptions(schema);
    const option = union?.options.get(String(value[union.discriminator]));
    return option ? fillDefaults(option, value) : value;
  }
  return value;
}
