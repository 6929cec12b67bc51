/**
 * How a failed `@hearth` request ends in the Chat view: a request the user cancelled ends quietly
 * (nothing in the error box); any other failure reads as Hearth's errors do — what failed, with no
 * key in it, then what to do about it. Free of `vscode`: the participant tells whether the error
 * came from the Chat view's model (a `LanguageModelError`).
 */
import { describeError, isHearthError } from '../../errors';

export type ParticipantFailure = { cancelled: true } | { cancelled?: undefined; message: string };

export interface FailureContext {
  /** The request's cancellation was asked for (the stop button, a new request). */
  cancelled: boolean;
  /** The error is the Chat view's model's (VS Code's LanguageModelError). */
  fromModel: boolean;
  redact(text: string): string;
}

export function participantFailure(error: unknown, context: FailureContext): ParticipantFailure {
  if (context.cancelled || (isHearthError(error) && error.code === 'llm.cancelled')) return { cancelled: true };
  const what = context.redact(describeError(error)).trim() || 'The request failed.';
  return { message: `${what} ${remedy(error, context.fromModel)}` };
}

/** What to do about it, by what failed. */
function remedy(error: unknown, fromModel: boolean): string {
  const code = isHearthError(error) ? error.code : undefined;
  if (code === 'llm.unreachable') return 'Start the model\'s provider (or correct its endpoint), or pick another model in the Chat view\'s model picker, then ask again.';
  if (code === 'llm.unauthorized') return 'Check the provider\'s key ("Hearth: Check Configuration"), or pick another model, then ask again.';
  if (fromModel) return 'Pick another model in the Chat view\'s model picker (Hearth\'s providers are listed there), then ask again.';
  return 'Check the model\'s provider ("Hearth: Check Configuration", "Hearth: Show Log"), then ask again.';
}
