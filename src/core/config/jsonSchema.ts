/**
 * The JSON Schema of config.toml, generated from the zod schema so the two never drift. It ships as
 * dist/config.schema.json and is contributed for `.hearth/config.toml` and `hearth/config.toml`
 * (`tomlValidation`), so TOML editors complete and check keys.
 */
import * as z from 'zod/mini';
import { HearthConfigSchema } from './schema';

export const CONFIG_SCHEMA_ID = 'https://hearth.invalid/config.schema.json';

export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(HearthConfigSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const json = ctx.jsonSchema as Record<string, unknown>;
      // A default computed from this machine's cores would be wrong on the user's machine.
      if (ctx.path.at(-1) === 'parallel_workers') {
        delete json.default;
        json.description = 'Embedding worker threads for local_cpu (batches in flight unless max_concurrent is set); default: half the CPU cores';
      }
    },
  }) as Record<string, unknown>;
  return { ...schema, $id: CONFIG_SCHEMA_ID, title: 'Hearth configuration (config.toml)' };
}
