import * as z from 'zod';

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const list = z.array(scalar);

/**
 * A frontmatter property's value as tools accept it: a scalar, a list of scalars, or a one-level
 * map of those. Typed rather than `unknown` because an empty `{}` schema tells a model nothing
 * (and strict clients such as MCP Inspector warn about it); no `$ref`, which some model APIs refuse.
 */
export const propertyValueSchema = z.union([scalar, list, z.record(z.string(), z.union([scalar, list]))]);

/** Frontmatter properties by name. */
export const propertiesSchema = z.record(z.string(), propertyValueSchema);
