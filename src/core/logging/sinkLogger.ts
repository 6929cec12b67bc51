import type { Logger, LogLevel } from '../host';

/** Where a logger's lines go: one call per line, with its level, its message and the extra arguments. */
export type LogSink = (level: LogLevel, message: string, args: unknown[]) => void;

/**
 * A complete Logger over a sink, sub-loggers included: every Logger Hearth makes (the hosts', the
 * redacting and level-filtering wrappers, the tests') is one, so `child` prefixes the same way
 * everywhere: `[topic] message`, nested topics joined by `:` (`[mcp:fs] message`).
 */
export function sinkLogger(sink: LogSink): Logger {
  return topicLogger(sink, []);
}

function topicLogger(sink: LogSink, topics: readonly string[]): Logger {
  const prefix = topics.length > 0 ? `[${topics.join(':')}] ` : '';
  const at =
    (level: LogLevel) =>
    (message: string, ...args: unknown[]): void =>
      sink(level, prefix + message, args);
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    child: (topic) => topicLogger(sink, [...topics, topic]),
  };
}
