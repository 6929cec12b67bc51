/**
 * What every `hearth` command starts from: the common flags (`--workspace DIR`, `--yes`,
 * `--verbose`, `--help`) parsed with node:util parseArgs, the loaded configuration, and a CliHost
 * built from its `[cli]` / `[logging]` settings, with every secret the configuration can reach
 * registered for redaction. Loading never stops a command: its problems are printed once, on request.
 */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, type LoadedConfig } from '../core/config/load';
import { formatConfigProblem } from '../core/config/problem';
import { HearthError } from '../core/errors';
import { isLevelEnabled, effectiveLogLevel, Redactor } from '../core/logging/redactingLogger';
import type { LogLevel } from '../core/host';
import { CliHost } from './cliHost';
import { blockingKeys, offerTrust, TRUST_NAME, trustedForThisRun, trustedFoldersFor, untrustedError, untrustedNote, type TrustNeeds } from './cliTrust';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import type { CliIo } from './cliIo';

/** Flags every command accepts; commands add their own next to these. */
export const COMMON_OPTIONS = {
  workspace: { type: 'string', short: 'w' },
  yes: { type: 'boolean', short: 'y' },
  verbose: { type: 'boolean' },
  trust: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

export const COMMON_HELP = `  -w, --workspace DIR  the workspace whose .hearth/config.toml applies (default: current directory)
  -y, --yes            answer yes to every confirmation ([cli].confirm_destructive)
      --verbose        debug logging on stderr (as [cli].verbose = true)
      --trust          trust this folder's .hearth/config.toml for this run (as HEARTH_TRUST=1)
  -h, --help           this help`;

export interface CommonFlags {
  workspace?: string;
  yes?: boolean;
  verbose?: boolean;
  trust?: boolean;
}

/** A wrong command line: main prints the message and exits 2. */
export class UsageError extends HearthError {
  constructor(message: string) {
    super('cli.usage', message);
  }
}

/**
 * parseArgs with the common options added and its errors turned into UsageErrors naming the
 * command, e.g. `unknown option "--jsn" (see hearth config --help)`.
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(command: string, argv: string[], options: T, allowPositionals = false) {
  try {
    const parsed = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals, strict: true });
    return { values: parsed.values, positionals: parsed.positionals as string[] };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const unknown = /'([^']+)'/.exec((error as Error).message)?.[1];
    const message =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown
        ? `unknown option "${unknown}"`
        : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && unknown
          ? `unexpected argument "${unknown}"`
          : (error as Error).message;
    throw new UsageError(`${message} (see hearth ${command} --help)`);
  }
}

export interface CliContext {
  workspaceRoot: string;
  loaded: LoadedConfig;
  host: CliHost;
  redactor: Redactor;
  /** Whether the workspace file applied in full (a trusted folder, `--trust` or `HEARTH_TRUST=1`). */
  trusted: boolean;
  /** Prints the configuration's problems to stderr (errors always, warnings unless the level is `error`); only the first call prints. */
  reportConfigProblems(): void;
}

export interface CliContextOptions {
  /** Overrides the per-platform global config file (tests). */
  globalConfigPath?: string;
  /** Passed to the host (tests drive confirm/progress with fake streams). */
  interactive?: boolean;
  progressBar?: boolean;
  /**
   * What the command depends on (cliTrust.ts): in an untrusted folder a withheld key in one of
   * these areas stops it with exit code 3. Default: nothing (it runs with one note on stderr).
   */
  trustNeeds?: TrustNeeds;
}

export async function createCliContext(io: CliIo, flags: CommonFlags, options: CliContextOptions = {}): Promise<CliContext> {
  const workspaceRoot = resolve(io.cwd, flags.workspace ?? '.');
  // One redactor per process: main made it (its top-level handler redacts with it too). Loading
  // registers every configured secret with it; `{secret:NAME}` reads variable NAME here (no store).
  const redactor = io.redactor ?? new Redactor();
  const load = (trusted: boolean) => loadConfig({ workspaceRoot, env: io.env, globalConfigPath: options.globalConfigPath, trusted, trustName: TRUST_NAME, redactor });
  const store = trustedFoldersFor(io.env, options.globalConfigPath);
  let trusted = trustedForThisRun(flags.trust, io.env) || (await store.covering(workspaceRoot)) !== undefined;
  let loaded = await load(trusted);
  let trustNote: string | undefined;
  if (!trusted && loaded.withheld.length > 0) {
    const needs = options.trustNeeds ?? { areas: [] };
    const blocking = blockingKeys(loaded, needs);
    if (blocking.length === 0) trustNote = untrustedNote(workspaceRoot, loaded.withheld);
    else if (needs.mayAsk !== false && (await offerTrust(store, workspaceRoot, blocking, io))) {
      trusted = true;
      loaded = await load(true);
    } else throw untrustedError(workspaceRoot, blocking);
  }
  const level = cliLogLevel(loaded, flags.verbose === true);
  const host = new CliHost({
    stderr: io.stderr,
    stdin: io.stdin,
    env: io.env,
    level,
    cli: loaded.config.cli,
    yes: flags.yes === true,
    redactor,
    interactive: options.interactive,
    progressBar: options.progressBar,
  });
  // One note for every withheld key (config check lists them one by one).
  if (trustNote) host.writeLine(trustNote);
  let reported = false;
  const reportConfigProblems = () => {
    if (reported) return;
    reported = true;
    const shown = loaded.problems.filter((p) => p.code !== 'config.untrusted_key' && (p.severity === 'error' || isLevelEnabled('warn', level)));
    for (const problem of shown) host.writeLine(`config: ${formatConfigProblem(problem)}`);
    const errors = loaded.problems.filter((p) => p.severity === 'error').length;
    if (errors > 0) host.writeLine(`config: ${errors} error(s): those values fall back to their defaults (details: hearth config check)`);
  };
  return { workspaceRoot, loaded, host, redactor, trusted, reportConfigProblems };
}

/** `[logging].level`, raised to `debug` by `[cli].verbose` or `--verbose`. */
export function cliLogLevel(loaded: LoadedConfig, verboseFlag: boolean): LogLevel {
  const level = effectiveLogLevel(loaded.config);
  return verboseFlag && !isLevelEnabled('debug', level) ? 'debug' : level;
}
