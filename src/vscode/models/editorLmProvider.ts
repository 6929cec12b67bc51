/**
 * `githubcopilot` inside the editor: VS Code's Language Model API (`vscode.lm`, vendor `copilot`).
 * The core cannot import `vscode`, so this provider is handed to the core as a factory (see
 * createProvider's ProviderFactories). The API has no system role and reports no usage: system text
 * leads the first user message, and no usage event is sent.
 */
import * as vscode from 'vscode';
import { LlmError, type LlmErrorCode } from '../../core/llm/errors';
import { parameterBillionsFromName } from '../../core/llm/modelSize';
import { guarded, guardedStream } from '../../core/llm/requestGuard';
import type { ChatEvent, ChatMessage, ChatOptions, LlmProvider, ModelInfo, ProviderSettings, ToolDefinition } from '../../core/llm/types';

export const COPILOT_VENDOR = 'copilot';
const ENDPOINT = 'vscode.lm (copilot)';

export function toLanguageModelMessages(messages: ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const out: vscode.LanguageModelChatMessage[] = [];
  let systemPending = system.length > 0 ? system.join('\n\n') : undefined;
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      out.push(vscode.LanguageModelChatMessage.User(systemPending ? `${systemPending}\n\n${message.content}` : message.content));
      systemPending = undefined;
    } else if (message.role === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (message.content) parts.push(new vscode.LanguageModelTextPart(message.content));
      for (const call of message.toolCalls ?? []) parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, call.arguments));
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      const text = message.isError ? `Error: ${message.content}` : message.content;
      out.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(message.toolCallId, [new vscode.LanguageModelTextPart(text)])]));
    }
  }
  if (systemPending) out.unshift(vscode.LanguageModelChatMessage.User(systemPending));
  return out;
}

export class CopilotProvider implements LlmProvider {
  constructor(readonly settings: ProviderSettings) {}

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return guarded(this.settings, signal, { endpoint: ENDPOINT, operation: 'list' }, async () => {
      const models = await vscode.lm.selectChatModels({ vendor: COPILOT_VENDOR });
      // An empty list means Copilot is missing or signed out: say so instead of listing nothing.
      if (models.length === 0) throw this.noModels();
      return models.map((m) => ({ id: m.id, ...(m.maxInputTokens ? { contextLength: m.maxInputTokens } : {}) }));
    });
  }

  async parameterBillions(model: string): Promise<number | undefined> {
    return parameterBillionsFromName(model);
  }

  private noModels(): LlmError {
    return new LlmError('llm.unreachable', `provider "${this.settings.name}" (githubcopilot): no Copilot chat models are available. Install GitHub Copilot Chat and sign in.`, this.settings.name);
  }

  private async pick(model: string | undefined): Promise<vscode.LanguageModelChat> {
    const models = await vscode.lm.selectChatModels({ vendor: COPILOT_VENDOR });
    if (models.length === 0) throw this.noModels();
    if (!model) return models[0];
    const found = models.find((m) => m.id === model || m.family === model);
    if (!found) {
      throw new LlmError('llm.model_not_found', `model "${model}" not found on provider "${this.settings.name}" (githubcopilot). Available: ${models.map((m) => m.id).join(', ')}.`, this.settings.name);
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
            toLanguageModelMessages(messages),
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
          if (part instanceof vscode.LanguageModelTextPart) {
            if (part.value) yield { type: 'text', text: part.value };
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            sawToolCall = true;
            yield { type: 'tool_call', call: { id: part.callId, name: part.name, arguments: (part.input ?? {}) as Record<string, unknown> } };
          }
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
    NoPermissions: ['llm.unauthorized', 'Hearth is not allowed to use Copilot models: allow it when VS Code asks, or under Accounts > Manage Language Model Access.'],
    NotFound: ['llm.model_not_found', 'The Copilot model is not available: pick another one with "Hearth: Switch Model".'],
    Blocked: ['llm.request_failed', 'Copilot blocked the request (quota or policy).'],
  };
  const [code, remedy] = codes[error.code] ?? ['llm.request_failed', error.message];
  return new LlmError(code, `provider "${settings.name}" (githubcopilot): ${remedy}`, settings.name, { cause: error });
}
