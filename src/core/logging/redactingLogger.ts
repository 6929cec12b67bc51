/**
 * Keeps secrets out of every log line (DESIGN.md decision 2). Whoever resolves a key registers it
 * with the Redactor; the logger wrapper then scrubs messages and arguments before the host sees them.
 */
import type { Logger, LogLevel } from '../host';
import { LOG_LEVELS } from '../host';
import type { Redactor } from './redactor';
import { sinkLogger } from './sinkLogger';

export { REDACTED, Redactor } from './redactor';

/** Wraps a logger so that no registered secret reaches it, in the message or in any argument. */
export function redactingLogger(inner: Logger, redactor: Redactor): Logger {
  return sinkLogger((level, message, args) => inner[level](redactor.redact(message), ...args.map((arg) => redactor.redactValue(arg))));
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
  return sinkLogger((at, message, args) => {
    if (isLevelEnabled(at, threshold())) inner[at](message, ...args);
  });
}

/** `[logging].level`, raised to `debug` when `[cli].verbose` is true (DESIGN.md decision 12). */
export function effectiveLogLevel(config: { logging: { level: LogLevel }; cli: { verbose: boolean } }): LogLevel {
  const configured = config.logging.level;
  if (config.cli.verbose && !isLevelEnabled('debug', configured)) return 'debug';
  return configured;
}
