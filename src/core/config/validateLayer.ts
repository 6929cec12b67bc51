/**
 * Validates one config file's parsed TOML *per key* (DESIGN.md decision 3): an invalid value is an
 * error and only that key is dropped (so the default or the lower layer applies); unknown keys are
 * warnings with "did you mean" and are dropped; an `[[mcp.servers]]` entry that lacks a required
 * key or has an invalid transport is dropped whole, since it cannot be half-applied. Cross-key rules
 * (required provider `type`, custom endpoints, unique names) wait for the merged result.
 */
import type { z } from 'zod/mini';
import { HearthConfigSchema } from './schema';
import type { ConfigProblem, ConfigProblemCode } from './problem';
import { didYouMean } from './didYouMean';
import { formatKeyPath, type KeySegment } from './keyPath';
import type { TomlLocator } from './tomlLocator';
import { defOf, defaultOf, isOptionalKey, kindOf, shapeOf, unionOptions, unwrap } from './zodShape';
import { parseSecretReference } from './resolveSecret';

export interface LayerContext {
  source: 'global' | 'workspace';
  file: string;
  locator?: TomlLocator;
  problems: ConfigProblem[];
}

export interface ValidatedLayer {
  /** Only the keys that passed, without defaults. */
  data: Record<string, unknown>;
  /** For each kept `[[mcp.servers]]` entry, its index in the file (problems name the file's index). */
  serverOrigins: number[];
}

const DROP = Symbol('drop');
type Walked = unknown | typeof DROP;

export function validateLayer(raw: Record<string, unknown>, ctx: LayerContext): ValidatedLayer {
  const serverOrigins: number[] = [];
  const walker = new LayerWalker(ctx, serverOrigins);
  const data = walker.object(HearthConfigSchema, raw, []);
  return { data: data === DROP ? {} : (data as Record<string, unknown>), serverOrigins };
}

export function isTable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  // smol-toml builds tables with a null prototype; dates are class instances and are not tables.
  return proto === null || proto === Object.prototype;
}

export function describeValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return String(value);
  if (isTable(value)) return 'a table';
  // A 64-bit integer (a bigint) anywhere inside is shown by its digits; JSON.stringify would throw on it.
  const text = JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? `${inner}` : inner)) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  // The reader keeps 64-bit integers exact (parseToml.ts); no setting takes one past Number's safe range.
  if (typeof value === 'bigint') return `the integer ${value}, beyond the largest Hearth reads (${Number.MAX_SAFE_INTEGER})`;
  return `a ${typeof value}`;
}

/** A zod issue in words a user understands. */
export function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const got = describeValue(value);
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'array' ? `must have at most ${issue.maximum} entries` : `must be at most ${issue.maximum} (got ${got})`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${issue.minimum} entries`;
      return `must be at least ${issue.minimum} (got ${got})`;
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'an integer' : issue.expected === 'object' ? 'a table' : `a ${issue.expected}`;
      const at = issue.path.length > 0 ? ` (entry ${issue.path.map(String).join('.')})` : '';
      const offending = issue.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown>)?.[k as PropertyKey], value);
      return `must be ${expected}${at}, got ${typeName(offending)}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${got})`;
    case 'invalid_format':
      return `${issue.message} (got ${got})`;
    default:
      return issue.message;
  }
}

class LayerWalker {
  constructor(
    private readonly ctx: LayerContext,
    private readonly serverOrigins: number[],
  ) {}

  report(segments: KeySegment[], code: ConfigProblemCode, severity: 'error' | 'warning', message: string): void {
    const at = this.ctx.locator?.nearest(segments);
    this.ctx.problems.push({ file: this.ctx.file, line: at?.line, column: at?.column, keyPath: formatKeyPath(segments), severity, code, message });
  }

  /** What happens instead of an invalid value, said to the user. */
  private fallback(schema: z.ZodMiniType, segments: KeySegment[]): string {
    if (!isOptionalKey(schema)) {
      return segments[0] === 'mcp' ? 'the server entry is ignored' : `the enclosing [${formatKeyPath(segments.slice(0, -1))}] is ignored`;
    }
    const lower = this.ctx.source === 'workspace' ? 'the global value or ' : '';
    const value = defaultOf(schema);
    if (value === undefined || isTable(value)) return this.ctx.source === 'workspace' ? 'the global value, if any, applies' : 'the key is ignored';
    return `${lower}the default ${describeValue(value)} applies`;
  }

  object(schema: z.ZodMiniType, value: unknown, segments: KeySegment[]): Walked {
    if (!isTable(value)) {
      this.report(segments, 'config.invalid_value', 'error', `\`${formatKeyPath(segments)}\` must be a table, got ${typeName(value)}; ${this.fallback(schema, segments)}.`);
      return DROP;
    }
    const shape = shapeOf(schema);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const childSchema = shape[key];
      const path = [...segments, key];
      if (!childSchema) {
        const known = Object.keys(shape);
        const suggestion = didYouMean(key, known);
        const where = segments.length === 0 ? 'at the top level' : `in [${formatKeyPath(segments)}]`;
        const hint = suggestion ? ` Did you mean \`${suggestion}\`?` : ` Known keys: ${known.join(', ')}.`;
        this.report(path, 'config.unknown_key', 'warning', `Unknown key \`${key}\` ${where}; it is ignored.${hint}`);
        if (suggestion) this.ctx.problems[this.ctx.problems.length - 1]!.fix = { replace: key, with: suggestion };
        continue;
      }
      const walked = this.value(childSchema, child, path);
      if (walked !== DROP) out[key] = walked;
    }
    return out;
  }

  value(schema: z.ZodMiniType, value: unknown, segments: KeySegment[]): Walked {
    const kind = kindOf(schema);
    if (kind === 'object') return this.object(schema, value, segments);
    if (kind === 'record') return this.record(schema, value, segments);
    if (kind === 'array' && kindOf(defOf(unwrap(schema)).element!) === 'object') return this.servers(schema, value, segments);
    const parsed = unwrap(schema).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      // Custom messages such as the prefix rule already start with the key's name.
      const described = describeIssue(issue, value).replace(new RegExp(`^${String(segments.at(-1))} `), '');
      this.report(segments, 'config.invalid_value', 'error', `\`${formatKeyPath(segments)}\` ${described}; ${this.fallback(schema, segments)}.`);
      return DROP;
    }
    this.checkSecret(segments, parsed.data);
    return parsed.data;
  }

  private record(schema: z.ZodMiniType, value: unknown, segments: KeySegment[]): Walked {
    if (!isTable(value)) {
      this.report(segments, 'config.invalid_value', 'error', `\`${formatKeyPath(segments)}\` must be a table, got ${typeName(value)}; ${this.fallback(schema, segments)}.`);
      return DROP;
    }
    const def = defOf(unwrap(schema));
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const path = [...segments, key];
      const keyCheck = def.keyType!.safeParse(key);
      if (!keyCheck.success) {
        this.report(path, 'config.invalid_value', 'error', `\`${key}\` is not a valid name in [${formatKeyPath(segments)}]: ${keyCheck.error.issues[0].message}; it is ignored.`);
        continue;
      }
      const walked = this.value(def.valueType!, child, path);
      if (walked !== DROP) out[key] = walked;
    }
    return out;
  }

  /** `[[mcp.servers]]`: each entry is kept whole or dropped whole. */
  private servers(schema: z.ZodMiniType, value: unknown, segments: KeySegment[]): Walked {
    if (!Array.isArray(value)) {
      this.report(segments, 'config.invalid_value', 'error', `\`${formatKeyPath(segments)}\` must be written as [[${formatKeyPath(segments)}]] entries, got ${typeName(value)}; it is ignored.`);
      return DROP;
    }
    const element = defOf(unwrap(schema)).element!;
    const out: unknown[] = [];
    // Entries are merged across files by name, so names (and prefixes) must be unique within a file
    // before merging; a later duplicate is dropped where it is written.
    const names = new Map<string, string>();
    const prefixes = new Map<string, string>();
    value.forEach((entry, index) => {
      const walked = this.server(element, entry, [...segments, index]);
      if (walked === DROP) return;
      const server = walked as { name: string; prefix: string };
      if (names.has(server.name)) {
        this.report([...segments, index, 'name'], 'config.duplicate', 'error', `Duplicate server name "${server.name}" (also used by an earlier [[mcp.servers]] entry); this entry is ignored.`);
        return;
      }
      if (prefixes.has(server.prefix)) {
        this.report([...segments, index, 'prefix'], 'config.duplicate', 'error', `Duplicate prefix "${server.prefix}" (also used by "${prefixes.get(server.prefix)}"); this entry is ignored.`);
        return;
      }
      names.set(server.name, server.name);
      prefixes.set(server.prefix, server.name);
      out.push(walked);
      this.serverOrigins.push(index);
    });
    return out;
  }

  private server(schema: z.ZodMiniType, value: unknown, segments: KeySegment[]): Walked {
    if (!isTable(value)) {
      this.report(segments, 'config.invalid_value', 'error', `Each [[mcp.servers]] entry must be a table, got ${typeName(value)}; it is ignored.`);
      return DROP;
    }
    const shape = shapeOf(schema);
    const { transport, ...rest } = value;
    const out = this.object(schema, rest, segments) as Record<string, unknown>;
    let ok = true;
    if (transport !== undefined) {
      const walked = this.transport(shape.transport, transport, [...segments, 'transport']);
      if (walked === DROP) ok = false;
      else out.transport = walked;
    }
    const label = typeof value.name === 'string' && value.name ? `"${value.name}"` : `#${Number(segments.at(-1)) + 1}`;
    for (const [key, child] of Object.entries(shape)) {
      if (isOptionalKey(child) || key in out) continue;
      ok = false;
      // An invalid required value was reported already; a missing one is reported here.
      if (!(key in value)) this.report([...segments, key], 'config.missing_key', 'error', `[[mcp.servers]] entry ${label} is missing the required key \`${key}\`; the entry is ignored.`);
    }
    return ok ? out : DROP;
  }

  private transport(schema: z.ZodMiniType, value: unknown, segments: KeySegment[]): Walked {
    if (!isTable(value)) {
      this.report(segments, 'config.invalid_value', 'error', `\`${formatKeyPath(segments)}\` must be a table with a \`type\`, got ${typeName(value)}; the server entry is ignored.`);
      return DROP;
    }
    const union = unionOptions(schema)!;
    const type = value[union.discriminator];
    const kinds = [...union.options.keys()];
    if (type === undefined) {
      this.report([...segments, union.discriminator], 'config.missing_key', 'error', `\`${formatKeyPath(segments)}\` needs a \`type\` (one of ${kinds.join(', ')}); the server entry is ignored.`);
      return DROP;
    }
    const option = union.options.get(String(type));
    if (typeof type !== 'string' || !option) {
      this.report([...segments, union.discriminator], 'config.invalid_value', 'error', `Invalid transport type ${describeValue(type)}: must be one of ${kinds.join(', ')}; the server entry is ignored.`);
      return DROP;
    }
    const out = this.object(option, value, segments) as Record<string, unknown>;
    let ok = true;
    for (const [key, child] of Object.entries(shapeOf(option))) {
      if (isOptionalKey(child) || key in out) continue;
      ok = false;
      if (!(key in value)) this.report([...segments, key], 'config.missing_key', 'error', `A ${type} transport needs \`${key}\`; the server entry is ignored.`);
    }
    return ok ? out : DROP;
  }

  /** Warns about keys kept in plain text and about bare variable names (DESIGN.md decision 2). */
  private checkSecret(segments: KeySegment[], value: unknown): void {
    const key = segments.at(-1);
    const isSecretKey = (key === 'api_key' && segments[0] === 'llm') || (key === 'auth_header' && segments[0] === 'mcp');
    if (!isSecretKey || typeof value !== 'string' || value.trim() === '') return;
    const ref = parseSecretReference(value);
    const path = formatKeyPath(segments);
    if (ref.kind === 'bare') {
      this.report(segments, 'config.bare_env_name', 'warning', `\`${path}\` is read from the environment variable ${ref.name}; write "{env:${ref.name}}" to make that explicit.`);
    } else if (ref.kind === 'literal' && !/\{(env|secret):[^}]+\}/.test(value)) {
      this.report(segments, 'config.plain_text_secret', 'warning', `\`${path}\` holds a secret in plain text; prefer "{env:VAR}" or "{secret:NAME}" (Hearth: Set API Key).`);
    }
  }
}
