/**
 * The little zod introspection the per-key validator needs: which kind of node a schema is under
 * its optional/default wrappers, its fields, and what "falling back" means for one key.
 */
import type { z } from 'zod/mini';

type Def = {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  keyType?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  discriminator?: string;
};

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

export function defOf(schema: z.ZodMiniType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema under optional/default/prefault wrappers. */
export function unwrap(schema: z.ZodMiniType): z.ZodMiniType {
  let current = schema;
  for (let def = defOf(current); WRAPPERS.has(def.type) && def.innerType; def = defOf(current)) current = def.innerType;
  return current;
}

export function kindOf(schema: z.ZodMiniType): string {
  return defOf(unwrap(schema)).type;
}

export function shapeOf(schema: z.ZodMiniType): Record<string, z.ZodMiniType> {
  return defOf(unwrap(schema)).shape ?? {};
}

/** True when the key may be left out (it is optional or has a default). */
export function isOptionalKey(schema: z.ZodMiniType): boolean {
  return schema.safeParse(undefined).success;
}

/** The value a key takes when it is not written: its default, or undefined. */
export function defaultOf(schema: z.ZodMiniType): unknown {
  const parsed = schema.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The `type` values of a discriminated union of objects, each with its option schema. */
export function unionOptions(schema: z.ZodMiniType): { discriminator: string; options: Map<string, z.ZodMiniType> } | undefined {
  const def = defOf(unwrap(schema));
  if (def.type !== 'union' || !def.discriminator || !def.options) return undefined;
  const options = new Map<string, z.ZodMiniType>();
  for (const option of def.options) {
    const literal = shapeOf(option)[def.discriminator];
    const values = literal ? (defOf(literal) as unknown as { values?: unknown[] }).values : undefined;
    for (const value of values ?? []) options.set(String(value), option);
  }
  return { discriminator: def.discriminator, options };
}
