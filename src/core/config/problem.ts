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
  /** Stable identifier for callers and tests: 'config.toml_syntax' | 'config.unknown_key' | 'config.invalid_value' | … */
  code: ConfigProblemCode;
  /** Written for the user; includes "did you mean …" for misspelt keys. */
  message: string;
  /** A "Did you mean" with one answer: the misspelt text on the problem's line and what to write instead (a quick fix). */
  fix?: { replace: string; with: string };
}

export type ConfigProblemCode =
  | 'config.toml_syntax'
  | 'config.unreadable_file'
  | 'config.unknown_key'
  | 'config.invalid_value'
  | 'config.missing_key'
  | 'config.duplicate'
  | 'config.plain_text_secret'
  | 'config.bare_env_name'
  | 'config.unknown_provider'
  | 'config.env_override'
  /** A valid key that has no effect in this configuration (`[chat].provider` beside `[llm.providers]`). */
  | 'config.ignored_key'
  /** A path setting (kiln_path) that names no existing folder. */
  | 'config.missing_path'
  /** A workspace key that runs a program or sends data, ignored until the folder is trusted (trustGatedKeys.ts). */
  | 'config.untrusted_key'
  /** Keys nested past the locator's depth limit (tomlLocator.MAX_KEY_DEPTH); the file is ignored. */
  | 'config.too_deep'
  /** `__proto__`, `constructor` or `prototype` as a key; it is ignored. */
  | 'config.unsafe_key'
  /** The host's secret store did not answer in time (a locked keyring); that `{secret:}` counts as unset until a reload. */
  | 'config.secret_unavailable'
  /** A bug in the loader itself; the defaults apply. */
  | 'config.internal';

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
