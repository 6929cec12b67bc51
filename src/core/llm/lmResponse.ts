/**
 * One answer of a Hearth provider to the editor (a `hearth` language model request): the editor's
 * messages and tools in (lmParts.ts shapes), response parts reported as they stream. A request the
 * editor cancels ends quietly once the provider stops; any other failure is the provider's
 * LlmError (unreachable, unauthorized…), its message redacted before the editor sees it.
 */
import { describeError } from '../errors';
import type { Redactor } from '../logging/redactor';
import { chatEventToLmPart, lmMessagesToChat, lmToolsToDefinitions, type LmMessage, type LmPart, type LmTool } from './lmParts';
import { isLlmError, LlmError } from './errors';
import type { LlmProvider } from './types';

export interface EditorModelRequest {
  messages: readonly LmMessage[];
  tools?: readonly LmTool[];
  /** The provider's model (the part after `provider/`). */
  model: string;
}

export async function respondForEditor(
  provider: LlmProvider,
  request: EditorModelRequest,
  report: (part: LmPart) => void,
  signal: AbortSignal,
  redactor?: Redactor,
): Promise<void> {
  try {
    for await (const event of provider.chat(lmMessagesToChat(request.messages), lmToolsToDefinitions(request.tools), { model: request.model }, signal)) {
      if (signal.aborted) return;
      const part = chatEventToLmPart(event);
      if (part) report(part);
    }
  } catch (error) {
    if (signal.aborted) return;
    const text = `Hearth (${provider.settings.name}): ${describeError(error)}`;
    // The provider's code is kept (unreachable, unauthorized…); the text is redacted: VS Code logs it.
    throw new LlmError(isLlmError(error) ? error.code : 'llm.request_failed', redactor ? redactor.redact(text) : text, provider.settings.name, { cause: error });
  }
}
