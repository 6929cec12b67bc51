/** Build step: writes the config JSON Schema to the path given as the first argument. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { configJsonSchema } from './jsonSchema';

const out = process.argv[2] ?? 'dist/config.schema.json';
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
