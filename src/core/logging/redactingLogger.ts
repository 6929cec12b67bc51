/**
 * Keeps secrets out of every log line (DESIGN.md decision 2). Whoever resolves a key registers it
 * with the Redactor; the logger wrapper then scrubs messages and arguments before the host sees them.
 */
import type { Logger, LogLevel } from '../host';
import { LOG_LEVELS } from '../host';

export const REDACTED = '«redacted»';

/** Secrets shorter than this are not registered: redacting "a" or "ok" would mangle every line. */
const MIN_SECRET_LENGTH = 4;

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret value; every later `redact` replaces its occurrences. */
  add(secret: string | undefined): void {
    if (!secret) return;
    const trimmed = secret.trim();
    if (trimmed.length < MIN_SECRET_LENGTH) return;
    this.secrets.add(trimmed);
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    if (this.secrets.size === 0 || !text) return text;
    // Longest first, so a secret that contains another is replaced whole.
    let out = text;
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  /** Redacts any value as it would be printed: strings, errors (message and stack), and objects (as JSON). */
  redactValue(value: unknown): unknown {
    if (this.secrets.size === 0) return value;
    if (typeof value === 'string') return this.redact(value);
    if (value instanceof Error) {
      const copy = new Error(this.redact(value.message));
      copy.name = value.name;
      copy.stack = value.stack === undefined ? undefined : this.redact(value.stack);
      return copy;
    }
    if (value !== null && typeof value === 'object') {
      let text: string;
      try {
        text = JSON.stringify(value);
      } catch {
        text = String(value);
      }
      const redacted = this.redact(text);
      // Leave untouched objects as they were so hosts can still format them.
      return redacted === text ? value : redacted;
    }
    return value;
  }
}

/** Wraps a logger so that no registered secret reaches it, in the message or in any argument. */
export function redactingLogger(inner: Logger, redactor: Redactor): Logger {
  const wrap =
    (level: LogLevel) =>
    (message: string, ...args: unknown[]): void => {
      inner[level](redactor.redact(message), ...args.map((arg) => redactor.redactValue(arg)));
    };
  return { error: wrap('error'), warn: wrap('warn'), info: wrap('info'), debug: wrap('debug'), trace: wrap('trace') };
}

/** True when a message at `level` should be written under the threshold `threshold`. */
export function isLevelEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(threshold);
}

/**
 * Drops messages more detailed than `level` (`[logging].level`, or `debug` when `[cli].verbose`).
 * `level` may be a function so a live config reload changes the threshold without rewiring.
 */
export function levelFilteredLogger(inner: Logger, level: LogLevel | (() => LogLevel)): Logger {
  const threshold = typeof level === 'function' ? level : () => level;
  const wrap =
    (at: LogLevel) =>
    (message: string, ...args: unknown[]): void => {
      if (isLevelEnabled(at, threshold())) inner[at](message, ...args);
    };
  return { error: wrap('error'), warn: wrap('warn'), info: wrap('info'), debug: wrap('debug'), trace: wrap('trace') };
}

/** `[logging].level`, raised to `debug` when `[cli].verbose` is true (DESIGN.md decision 12). */
export function effectiveLogLevel(config: { logging: { level: LogLevel }; cli: { verbose: boolean } }): LogLevel {
  const configured = config.logging.level;
  if (config.cli.verbose && !isLevelEnabled('debug', configured)) return 'debug';
  return configured;
}
