/**
 * Adapts VS Code's LogOutputChannel to the core's Logger. Kept free of the `vscode` import (the
 * channel is described structurally) so it is unit-testable.
 *
 * Why not pass the channel straight through: a LogOutputChannel drops messages below the level the
 * user picked with "Developer: Set Log Level" (info by default), so `[logging].level = "debug"`
 * would show nothing. Messages the config asks for but the channel would drop are written at info
 * with their level as a tag instead.
 */
import type { Logger, LogLevel } from '../../core/host';
import { sinkLogger } from '../../core/logging/sinkLogger';

/** The part of vscode.LogOutputChannel used here; `logLevel` is vscode.LogLevel (Off 0 … Error 5). */
export interface LogChannelLike {
  readonly logLevel: number;
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

/** vscode.LogLevel's numeric values, mirrored so this file needs no `vscode` import. */
export const CHANNEL_LEVEL: Record<LogLevel, number> = { trace: 1, debug: 2, info: 3, warn: 4, error: 5 };
const CHANNEL_OFF = 0;

export function channelLogger(channel: LogChannelLike): Logger {
  return sinkLogger((at, message, args) => {
    const channelLevel = channel.logLevel;
    if (channelLevel === CHANNEL_OFF || channelLevel <= CHANNEL_LEVEL[at]) channel[at](message, ...args);
    else channel.info(`[${at}] ${message}`, ...args);
  });
}
