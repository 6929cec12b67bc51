import type { ProtectedWriteRequest } from './fs/writeGate';

/**
 * What the core needs from whoever hosts it (the editor or the CLI). The core never reaches for
 * globals: each service receives a Host (or the part of it it needs) through its constructor, so the
 * same code runs under VS Code, in the CLI and in unit tests with a fake host.
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug' | 'trace';

export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug', 'trace'];

/** Mirrors VS Code's LogOutputChannel's methods, plus sub-loggers per topic. */
export interface Logger {
  error(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  trace(message: string, ...args: unknown[]): void;
  /**
   * A logger for one topic: its lines start `[topic] `, and a child's child joins the topics
   * (`log.child('mcp').child('fs')` writes `[mcp:fs] …`). Areas take a child of the logger they are
   * given instead of typing a prefix, so every line names its area the same way; the child writes
   * through its parent, so redaction and the level filter still apply. Build loggers with
   * `sinkLogger` (core/logging/sinkLogger.ts), which implements this.
   */
  child(topic: string): Logger;
}

/**
 * Reports progress of long work; `increment` is a percentage of the whole, as in VS Code. `done` of
 * `total` counts the work's units (the notes of an index run) for a host that shows them apart from
 * the message — the editor's search says how much of the index is built while a build runs.
 */
export interface Progress {
  report(update: { message?: string; increment?: number; done?: number; total?: number }): void;
}

export interface ProgressOptions {
  title: string;
  /** The host may show a cancel button; the signal fires when the user presses it. */
  cancellable?: boolean;
}

export interface Host {
  readonly log: Logger;
  /** Runs long work with a progress indicator (or none, when `[cli].show_progress` is false). */
  withProgress<T>(options: ProgressOptions, work: (progress: Progress, signal: AbortSignal) => Promise<T>): Promise<T>;
  /**
   * Asks the user before destructive work. Hosts answer true without asking when
   * `[cli].confirm_destructive` is false (or `--yes` was given in the CLI). `action` labels the
   * button that proceeds in the editor ("Clear Index"); the CLI asks y/N.
   */
  confirm(message: string, detail?: string, action?: string): Promise<boolean>;
  /**
   * Asks about a write to a protected path (DESIGN.md decision 15) — every time, whatever
   * `confirm_destructive` or `--yes` say. Resolves undefined when nobody can be asked (no terminal);
   * a host without it refuses every protected write.
   */
  confirmProtected?(request: ProtectedWriteRequest): Promise<boolean | undefined>;
  /** Secret storage: VS Code SecretStorage in the editor, environment variables in the CLI. */
  readonly secrets: SecretStore;
}

export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  store?(name: string, value: string): Promise<void>;
}

/** A logger that writes nothing: for tests and for code paths that have no host yet. */
export const silentLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  child: () => silentLogger,
};
