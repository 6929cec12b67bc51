/**
 * The base of every error Hearth raises on purpose. Callers branch on `code`, never on the message;
 * the message is written for the user and says what to do; `cause` keeps the underlying error.
 */
/** The areas error codes are named after (`area.snake_case`); each area types its own union of codes. */
export const ERROR_AREAS = ['acp', 'agent', 'changes', 'chat', 'cli', 'config', 'embedding', 'fs', 'gateway', 'index', 'kiln', 'llm', 'lock', 'note', 'search', 'trust'] as const;
export type ErrorArea = (typeof ERROR_AREAS)[number];

/**
 * Every code is `area.snake_case` (issue 14): the type pins the area, and
 * test/unit/core/errorCodes.test.ts checks the snake_case of every code written in src.
 */
export type ErrorCode = `${ErrorArea}.${string}`;

/** `C` narrows `code` to an area's own union: `class AgentError extends HearthError<AgentErrorCode> {}`. */
export class HearthError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export function isHearthError(value: unknown): value is HearthError {
  return value instanceof HearthError;
}

/** The code of a HearthError, else `fallback`: a library's own code (`ECONNRESET`) is never shown as Hearth's. */
export function errorCode(error: unknown, fallback: ErrorCode): ErrorCode {
  return error instanceof HearthError ? error.code : fallback;
}

/** Turns anything thrown into a one-line message fit for a user (no stack traces). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
