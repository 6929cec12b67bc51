/**
 * `githubcopilot` inside the editor: VS Code's Language Model API (`vscode.lm`). It serves every
 * vendor's models the editor has (DESIGN.md decision 22), not only Copilot's: Copilot's models keep
 * their plain ids (`githubcopilot/gpt-4o`, as before), any other vendor's are `vendor/id`
 * (`githubcopilot/acme/llama3`) and listed with their vendor. Hearth's own vendor (`hearth`, its
 * providers served to the editor) is left out: Hearth would be asking itself.
 *
 * The core cannot import `vscode`, so this provider is handed to the core as a factory (see
 * createProvider's ProviderFactories). The message conversion is src/core/llm/lmParts.ts. The API
 * has no system role and reports no usage: system text leads the first user message, and no usage
 * event is sent.
 */
import * as vscode from 'vscode';
import { LlmError, type LlmErrorCode } from '../../core/llm/errors';
import { chatMessagesToLm, lmPartToChatEvent } from '../../core/llm/lmParts';
import { parameterBillionsFromName } from '../../core/llm/modelSize';
import { guarded, guardedStream } from '../../core/llm/requestGuard';
import type { ChatEvent, ChatMessage, ChatOptions, LlmProvider, ModelInfo, ProviderSettings, ToolDefinition } from '../../core/llm/types';
import { fromPlainMessages, toPlainPart } from './lmPartsAdapter';

export const COPILOT_VENDOR = 'copilot';
/** The vendor Hearth registers its own providers under (hearthLanguageModels.ts). */
export const HEARTH_VENDOR = 'hearth';
const ENDPOINT = 'vscode.lm';

/** The id Hearth gives an editor model: plain for Copilot's, `vendor/id` for every other vendor's. */
export function editorModelId(model: { vendor: string; id: string }): string {
  return model.vendor === COPILOT_VENDOR ? model.id : `${model.vendor}/${model.id}`;
}

export class EditorLmProvider implements LlmProvider {
  constructor(readonly settings: ProviderSettings) {}

  /** Every vendor's chat models but Hearth's own. */
  private async models(): Promise<vscode.LanguageModelChat[]> {
    return (await vscode.lm.selectChatModels()).filter((m) => m.vendor !== HEARTH_VENDOR);
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return guarded(this.settings, signal, { endpoint: ENDPOINT, operation: 'list' }, async () => {
      const models = await this.models();
      // An empty list means no model extension (Copilot signed out): say so instead of listing nothing.
      if (models.length === 0) throw this.noModels();
      return models.map((m) => ({ id: editorModelId(m), vendor: m.vendor, ...(m.maxInputTokens ? { contextLength: m.maxInputTokens } : {}) }));
    });
  }

  async parameterBillions(model: string): Promise<number | undefined> {
    return parameterBillionsFromName(model);
  }

  private noModels(): LlmError {
    return new LlmError(
      'llm.unreachable',
      `provider "${this.settings.name}" (githubcopilot): the editor has no language models. Install GitHub Copilot Chat and sign in, or an extension that provides chat models.`,
      this.settings.name,
    );
  }

  private async pick(model: string | undefined): Promise<vscode.LanguageModelChat> {
    const models = await this.models();
    if (models.length === 0) throw this.noModels();
    if (!model) return models.find((m) => m.vendor === COPILOT_VENDOR) ?? models[0];
    const found = models.find((m) => editorModelId(m) === model) ?? models.find((m) => m.vendor === COPILOT_VENDOR && m.family === model);
    if (!found) {
      throw new LlmError('llm.model_not_found', `model "${model}" not found on provider "${this.settings.name}" (githubcopilot). Available: ${models.map(editorModelId).join(', ')}.`, this.settings.name);
    }
    return found;
  }

  chat(messages: ChatMessage[], tools: ToolDefinition[], options: ChatOptions = {}, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    const self = this;
    const wanted = options.model ?? this.settings.model;
    return guardedStream(this.settings, signal, { endpoint: ENDPOINT, operation: 'chat', model: wanted }, async function* (s) {
      const model = await self.pick(wanted);
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      s.addEventListener('abort', onAbort, { once: true });
      let sawToolCall = false;
      try {
        const response = await model
          .sendRequest(
            fromPlainMessages(chatMessagesToLm(messages)),
            {
              justification: 'Hearth chats with your notes using the model you selected.',
              ...(tools.length > 0 ? { tools: tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.parameters })) } : {}),
            },
            cancel.token,
          )
          .then(undefined, (error: unknown) => {
            throw mapLanguageModelError(error, self.settings);
          });
        for await (const part of response.stream) {
          if (s.aborted) break;
          const event = lmPartToChatEvent(toPlainPart(part));
          if (!event) continue;
          if (event.type === 'tool_call') sawToolCall = true;
          yield event;
        }
        if (s.aborted) throw s.reason ?? new Error('aborted');
        yield { type: 'stop', reason: sawToolCall ? 'tool_calls' : 'stop' };
      } finally {
        s.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    });
  }
}

function mapLanguageModelError(error: unknown, settings: ProviderSettings): unknown {
  if (!(error instanceof vscode.LanguageModelError)) return error;
  const codes: Record<string, [LlmErrorCode, string]> = {
    NoPermissions: ['llm.unauthorized', 'Hearth is not allowed to use this model: allow it when VS Code asks, or under Accounts > Manage Language Model Access.'],
    NotFound: ['llm.model_not_found', 'The model is not available: pick another one with "Hearth: Switch Model".'],
    Blocked: ['llm.request_failed', 'The model\'s provider blocked the request (quota or policy).'],
  };
  const [code, remedy] = codes[error.code] ?? ['llm.request_failed', error.message];
  return new LlmError(code, `provider "${settings.name}" (githubcopilot): ${remedy}`, settings.name, { cause: error });
}
