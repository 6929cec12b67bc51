/**
 * The base of every error Hearth raises on purpose. Callers branch on `code`, never on the message;
 * the message is written for the user and says what to do; `cause` keeps the underlying error.
 */
export class HearthError extends Error {
  constructor(
    readonly code: string,
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

/** Turns anything thrown into a one-line message fit for a user (no stack traces). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
