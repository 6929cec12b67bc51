/** A problem found while loading configuration. Loading never throws; it returns these. */
export interface ConfigProblem {
  /** Absolute path of the file the problem is in; undefined for environment-variable problems. */
  file?: string;
  /** 1-based line and column where known (the key's position in the TOML file). */
  line?: number;
  column?: number;
  /** Dotted key path, e.g. `mcp.servers[1].prefix` or `chat.temperature`. */
  keyPath: string;
  severity: 'error' | 'warning';
  /** Stable identifier for callers and tests: 'toml-syntax' | 'unknown-key' | 'invalid-value' | … */
  code: ConfigProblemCode;
  /** Written for the user; includes "did you mean …" for misspelt keys. */
  message: string;
}

export type ConfigProblemCode =
  | 'toml-syntax'
  | 'unreadable-file'
  | 'unknown-key'
  | 'invalid-value'
  | 'missing-key'
  | 'duplicate'
  | 'plain-text-secret'
  | 'bare-env-name'
  | 'unknown-provider'
  | 'env-override'
  /** A valid key that has no effect in this configuration (`[chat].provider` beside `[llm.providers]`). */
  | 'ignored-key'
  /** A path setting (kiln_path) that names no existing folder. */
  | 'missing-path'
  /** A workspace key that runs a program or sends data, ignored until the folder is trusted (trustGatedKeys.ts). */
  | 'untrusted-key'
  /** Keys nested past the locator's depth limit (tomlLocator.MAX_KEY_DEPTH); the file is ignored. */
  | 'too-deep'
  /** `__proto__`, `constructor` or `prototype` as a key; it is ignored. */
  | 'unsafe-key'
  /** A bug in the loader itself; the defaults apply. */
  | 'internal';

/** Where an effective value came from (DESIGN.md decision 1). */
export type ConfigSource = 'default' | 'global' | 'workspace' | 'env';

/**
 * One line per problem, the way compilers print them so terminals and editors can link them:
 * `file:line:col: severity: message` (`hearth config check`). Environment problems have no file.
 */
export function formatConfigProblem(problem: ConfigProblem): string {
  const where = problem.file === undefined ? (problem.keyPath.startsWith('env.') ? 'environment' : 'hearth') : problem.line === undefined ? problem.file : `${problem.file}:${problem.line}:${problem.column ?? 1}`;
  return `${where}: ${problem.severity}: ${problem.message}`;
}
