/**
 * Persists a choice (`[llm].default`, a provider's `default_model`) by editing the TOML text in
 * place, so the user's comments and layout survive (DESIGN.md decision 4). The edited text is
 * re-parsed and checked before it replaces the file atomically; if anything is off the file is left
 * untouched and a HearthError says why.
 */
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parse } from 'smol-toml';
import { HearthError } from '../errors';
import { formatKeyPath, type KeySegment } from './keyPath';
import { TomlLocator } from './tomlLocator';

export type ConfigScalar = string | number | boolean;

export class ConfigEditError extends HearthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config.edit_failed', message, options);
  }
}

/** As the loader reads (parseToml.ts): a 64-bit integer elsewhere in the file is exact, not a syntax error. */
const TOML_OPTIONS = { integersAsBigInt: 'asNeeded' } as const;

export async function setConfigValue(file: string, keyPath: string[], value: ConfigScalar): Promise<void> {
  await setConfigValues(file, [{ keyPath, value }]);
}

export interface ConfigAssignment {
  keyPath: string[];
  value: ConfigScalar;
}

/**
 * Sets several keys in one write: the file holds all of them or none (a provider copied into a
 * file half-written would be the broken table this exists to avoid).
 */
export async function setConfigValues(file: string, assignments: readonly ConfigAssignment[]): Promise<void> {
  const named = assignments.map((a) => a.keyPath.join('.')).join(', ');
  if (assignments.length === 0 || assignments.some((a) => a.keyPath.length === 0)) throw new ConfigEditError('No key given to set.');
  const original = await readConfigFile(file);
  try {
    parse(original, TOML_OPTIONS);
  } catch (error) {
    throw new ConfigEditError(`${file} has a TOML syntax error; fix it before Hearth can save \`${named}\`.`, { cause: error });
  }
  const edited = planConfigEdit(original, assignments, file);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    await writeFile(temp, edited, 'utf8');
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw new ConfigEditError(`Cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The file's text; empty when it does not exist yet. */
export async function readConfigFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new ConfigEditError(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The text with every assignment applied, checked to mean exactly that; throws and writes nothing otherwise. */
export function planConfigEdit(original: string, assignments: readonly ConfigAssignment[], file: string): string {
  let edited = original;
  for (const { keyPath, value } of assignments) edited = editTomlText(edited, keyPath, value);
  verify(original, edited, assignments, file);
  return edited;
}

/** The edit itself, on text: replace the value, or insert the key in its table, or add the table. */
export function editTomlText(text: string, keyPath: string[], value: ConfigScalar): string {
  const locator = new TomlLocator(text);
  const rendered = formatTomlValue(value);
  const target = formatKeyPath(keyPath);
  const existing = locator.keyValues.find((kv) => formatKeyPath(kv.path) === target);
  if (existing) return text.slice(0, existing.valueStart) + rendered + text.slice(existing.valueEnd);

  const tablePath = keyPath.slice(0, -1);
  const key = formatKeyPath([keyPath.at(-1)!]);
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const isPrefix = (prefix: KeySegment[], of: KeySegment[]) => prefix.length <= of.length && prefix.every((segment, i) => segment === of[i]);

  // The table written as an inline table: add the key inside its braces.
  const inline = locator.keyValues.find((kv) => formatKeyPath(kv.path) === formatKeyPath(tablePath) && text[kv.valueStart] === '{');
  if (inline) {
    const close = inline.valueEnd - 1;
    const inner = text.slice(inline.valueStart + 1, close).trim();
    return `${text.slice(0, close).replace(/\s*$/, '')}${inner ? ', ' : ' '}${key} = ${rendered} ${text.slice(close)}`;
  }

  // The table has its own [header]: insert after its last key line.
  const header = locator.headers.find((h) => !h.isArray && formatKeyPath(h.path) === formatKeyPath(tablePath));
  if (header || tablePath.length === 0) {
    return insertIntoTable(text, locator, tablePath, `${key} = ${rendered}`, header?.lineEnd, newline);
  }

  // The table exists only through dotted keys under some [header] (or the root): add a dotted key there.
  const dotted = locator.keyValues.find(
    (kv) => !kv.nested && isPrefix(tablePath, kv.path) && kv.path.length > tablePath.length && isPrefix(kv.table, tablePath) && kv.table.length < tablePath.length,
  );
  if (dotted) {
    const relative = formatKeyPath([...tablePath.slice(dotted.table.length), keyPath.at(-1)!] as string[]);
    const host = locator.headers.find((h) => formatKeyPath(h.path) === formatKeyPath(dotted.table));
    return insertIntoTable(text, locator, dotted.table, `${relative} = ${rendered}`, host?.lineEnd, newline);
  }

  // A new table at the end of the file.
  const body = text === '' || text.endsWith('\n') ? text : text + newline;
  const gap = body.trim() === '' ? '' : newline;
  return `${body}${gap}[${formatKeyPath(tablePath)}]${newline}${key} = ${rendered}${newline}`;
}

function insertIntoTable(text: string, locator: TomlLocator, table: KeySegment[], line: string, headerEnd: number | undefined, newline: string): string {
  const name = formatKeyPath(table);
  const own = locator.keyValues.filter((kv) => !kv.nested && formatKeyPath(kv.table) === name);
  let at = own.length > 0 ? Math.max(...own.map((kv) => kv.lineEnd)) : headerEnd;
  if (at === undefined) {
    // Root keys go before the first [header] (they would belong to that table after it).
    at = locator.headers.length > 0 ? locator.headers[0].start : text.length;
  }
  const before = text.slice(0, at);
  const needsBreak = before !== '' && !before.endsWith('\n');
  const lineOut = `${needsBreak ? newline : ''}${line}${newline}`;
  const blankAfter = own.length === 0 && headerEnd === undefined && locator.headers.length > 0 ? newline : '';
  return before + lineOut + blankAfter + text.slice(at);
}

export function formatTomlValue(value: ConfigScalar): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return String(value);
  }
  // JSON string escapes are valid TOML basic-string escapes.
  return JSON.stringify(value);
}

function verify(original: string, text: string, assignments: readonly ConfigAssignment[], file: string): void {
  const named = assignments.map((a) => a.keyPath.join('.')).join(', ');
  let parsed: unknown;
  try {
    parsed = parse(text, TOML_OPTIONS);
  } catch (error) {
    throw new ConfigEditError(`Editing ${file} to set \`${named}\` would break its TOML; the file was left unchanged.`, { cause: error });
  }
  // The edited document must equal the original with exactly these keys set.
  const expected = parse(original, TOML_OPTIONS) as Record<string, unknown>;
  for (const { keyPath, value } of assignments) {
    let node: Record<string, unknown> = expected;
    for (const key of keyPath.slice(0, -1)) {
      if (node[key] === null || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[keyPath.at(-1)!] = value;
  }
  if (canonical(parsed) !== canonical(expected)) {
    throw new ConfigEditError(`Could not set \`${named}\` in ${file} without changing its meaning (it is defined in a way Hearth cannot edit); the file was left unchanged.`);
  }
}

/** JSON with sorted keys, so key order does not matter when comparing documents; a 64-bit integer by its digits. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'bigint'
      ? `${inner}n`
      : inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Date)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
