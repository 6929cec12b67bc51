/**
 * Workspace trust for configuration (DESIGN.md decision 14). A workspace file comes with whatever
 * folder was cloned, so the keys in it that run a program or send data or a secret somewhere apply
 * only once the user trusts the folder. They are removed from the workspace *layer* before the merge,
 * so the global value of the same key (a global `[[mcp.servers]]` entry of the same name included)
 * still applies. This file is the one list of those keys: a new key that runs a program or sends
 * data (a URL, a command, a secret) belongs in TRUST_GATED_KEYS.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { ConfigProblem } from './problem';
import { formatKeyPath, type KeySegment } from './keyPath';
import type { TomlLocator } from './tomlLocator';
import { isTable } from './validateLayer';
import { isLocalModelPath } from './modelPath';
import { canonicalProviderType } from './providerTypes';

/** What a withheld key feeds; commands decide from this whether they can run without it. */
export type TrustArea = 'mcp' | 'acp' | 'llm' | 'embedding' | 'database' | 'kiln' | 'agents';

export interface GatedKey {
  /** Key path with `*` for any table key; `mcp.servers` stands for each entry. */
  pattern: string;
  area: TrustArea;
  /** Why it waits, in the user's words (ends the diagnostic). */
  why: string;
  /** Gated only when this holds (a hosted embedding provider, a kiln outside the workspace). */
  when?: (value: unknown, ctx: TrustContext) => boolean;
}

const HOSTED_EMBEDDING = new Set(['cloud_a', 'cloud_b']);

export const TRUST_GATED_KEYS: readonly GatedKey[] = [
  { pattern: 'mcp.servers', area: 'mcp', why: 'it starts a program or connects to a server' },
  { pattern: 'acp.agents.*', area: 'acp', why: 'it starts a program' },
  { pattern: 'llm.providers.*.endpoint', area: 'llm', why: 'it sends your prompts and key to this address' },
  { pattern: 'llm.providers.*.api_key', area: 'llm', why: 'it chooses which key is sent' },
  { pattern: 'chat.endpoint', area: 'llm', why: 'it sends your prompts and key to this address' },
  { pattern: 'embedding.api_url', area: 'embedding', why: 'it sends your notes to this address' },
  { pattern: 'embedding.provider', area: 'embedding', why: "a hosted provider spends your key on this folder's notes", when: (value) => typeof value === 'string' && HOSTED_EMBEDDING.has(canonicalProviderType(value)) },
  {
    pattern: 'embedding.model',
    area: 'embedding',
    why: 'it loads a model from outside this folder',
    when: (value, ctx) => typeof value === 'string' && isLocalModelPath(value) && !isInside(ctx.workspaceRoot, value, ctx.home),
  },
  { pattern: 'processing.database_url', area: 'database', why: 'it sends your notes to this database' },
  // A cloned folder that names the team's kiln would replace the team's rows for every member;
  // one that switches to postgres would send its notes to the database your global config names.
  { pattern: 'processing.kiln_id', area: 'database', why: "it chooses whose rows in the shared database this folder's notes replace" },
  { pattern: 'processing.store', area: 'database', why: 'it sends your notes to the shared database', when: (value) => value === 'postgres' },
  { pattern: 'kiln_path', area: 'kiln', why: 'it points outside this folder', when: (value, ctx) => typeof value === 'string' && !isInside(ctx.workspaceRoot, value, ctx.home) },
  { pattern: 'agent_directories', area: 'agents', why: 'agent cards from there instruct the agents' },
];

/**
 * Workspace keys that may only make a protection stricter: the weaker value waits for trust. A
 * new protection a workspace could switch off belongs here.
 */
export const STRICTER_ONLY_KEYS: readonly { keyPath: string; weaker: (value: unknown) => boolean; why: string }[] = [
  { keyPath: 'cli.confirm_destructive', weaker: (value) => value === false, why: 'it turns off confirmations' },
  { keyPath: 'chat.review_edits', weaker: (value) => value === 'never', why: 'it turns off the review of agent edits' },
];

const REFERENCE = /\{(env|secret):[^}]*\}/;

/** One workspace key ignored until the folder is trusted. */
export interface WithheldKey {
  keyPath: string;
  area: TrustArea;
  why: string;
  file: string;
  line?: number;
  column?: number;
}

export interface TrustContext {
  workspaceRoot: string;
  home?: string;
}

export interface TrustFilterInput extends TrustContext {
  file: string;
  locator?: TomlLocator;
  data: Record<string, unknown>;
  serverOrigins: number[];
}

/**
 * The workspace layer without its trust-gated keys, and what was removed. Pure apart from the
 * `realpath` that places `kiln_path`; the input is not modified.
 */
export function withholdUntrusted(input: TrustFilterInput): { data: Record<string, unknown>; serverOrigins: number[]; withheld: WithheldKey[] } {
  const withheld: WithheldKey[] = [];
  const data = structuredClone(input.data);
  const note = (segments: KeySegment[], area: TrustArea, why: string, at: KeySegment[] = segments) => {
    const where = input.locator?.nearest(at);
    withheld.push({ keyPath: formatKeyPath(segments), area, why, file: input.file, line: where?.line, column: where?.column });
  };

  const mcp = data.mcp;
  if (isTable(mcp) && Array.isArray(mcp.servers)) {
    (mcp.servers as Record<string, unknown>[]).forEach((server, i) => {
      const fileIndex = input.serverOrigins[i] ?? i;
      note(['mcp', 'servers', fileIndex], 'mcp', `${TRUST_GATED_KEYS[0].why} (server "${String(server.name)}")`);
    });
    delete mcp.servers;
  }
  for (const gated of TRUST_GATED_KEYS.slice(1)) {
    for (const { segments, parent, key } of matches(data, gated.pattern.split('.'))) {
      const value = parent[key];
      if (gated.when && !gated.when(value, input)) continue;
      delete parent[key];
      note(segments, gated.area, gated.why);
    }
  }
  for (const rule of STRICTER_ONLY_KEYS) {
    for (const { segments, parent, key } of matches(data, rule.keyPath.split('.'))) {
      if (!rule.weaker(parent[key])) continue;
      delete parent[key];
      note(segments, areaOf(segments), rule.why);
    }
  }
  for (const segments of referencePaths(data, [])) {
    removeAt(data, segments);
    note(segments, areaOf(segments), 'it reads a secret or an environment variable');
  }
  return { data, serverOrigins: [], withheld };
}

/** The diagnostic for one withheld key; `trustName` is how this host grants trust. */
export function withheldProblem(key: WithheldKey, trustName: string): ConfigProblem {
  return {
    file: key.file,
    line: key.line,
    column: key.column,
    keyPath: key.keyPath,
    severity: 'warning',
    code: 'config.untrusted_key',
    message: `\`${key.keyPath}\` waits for ${trustName}: ${key.why}. It is ignored in this folder until you trust it.`,
  };
}

function areaOf(segments: KeySegment[]): TrustArea {
  switch (segments[0]) {
    case 'mcp':
      return 'mcp';
    case 'acp':
      return 'acp';
    case 'embedding':
      return 'embedding';
    case 'processing':
      return 'database';
    case 'kiln_path':
      return 'kiln';
    case 'agent_directories':
      return 'agents';
    default:
      return 'llm';
  }
}

interface Match {
  segments: KeySegment[];
  parent: Record<string, unknown>;
  key: string;
}

function matches(table: Record<string, unknown>, pattern: string[], prefix: KeySegment[] = []): Match[] {
  const [head, ...rest] = pattern;
  const keys = head === '*' ? Object.keys(table) : Object.hasOwn(table, head) ? [head] : [];
  return keys.flatMap((key) => {
    if (rest.length === 0) return [{ segments: [...prefix, key], parent: table, key }];
    const child = table[key];
    return isTable(child) ? matches(child, rest, [...prefix, key]) : [];
  });
}

/** Paths of every string (or array holding a string) that contains `{env:…}` or `{secret:…}`. */
function referencePaths(value: unknown, segments: KeySegment[]): KeySegment[][] {
  if (typeof value === 'string') return REFERENCE.test(value) ? [segments] : [];
  if (Array.isArray(value)) return value.some((item) => referencePaths(item, []).length > 0) ? [segments] : [];
  if (isTable(value)) return Object.entries(value).flatMap(([key, child]) => referencePaths(child, [...segments, key]));
  return [];
}

function removeAt(data: Record<string, unknown>, segments: KeySegment[]): void {
  let table: unknown = data;
  for (const segment of segments.slice(0, -1)) table = (table as Record<string, unknown>)[segment as string];
  if (isTable(table)) delete table[segments.at(-1) as string];
}

/**
 * Whether `target` (as written in the workspace file) lies inside the workspace once both are
 * real paths: a committed `notes -> /home/me` symlink is outside. A path that does not exist yet is
 * placed by its deepest existing ancestor.
 */
export function isInside(workspaceRoot: string, target: string, home?: string): boolean {
  let text = target.trim();
  if (home && (text === '~' || text.startsWith('~/') || text.startsWith('~\\'))) text = path.join(home, text.slice(1));
  const root = realpathOrSelf(path.resolve(workspaceRoot));
  const real = realpathOrSelf(path.resolve(workspaceRoot, text));
  const rel = path.relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function realpathOrSelf(file: string): string {
  let existing = file;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return file;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}
