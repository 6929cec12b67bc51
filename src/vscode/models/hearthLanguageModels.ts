/**
 * Hearth's providers as VS Code language models (DESIGN.md decision 22): vendor `hearth`, one model
 * per listed model of every configured provider (and the implicit `[chat]` provider), id
 * `provider/model` as in Hearth, declaring tool calling — so VS Code's model picker, its agent and
 * other extensions (`vscode.lm.selectChatModels`) can use a provider configured once in TOML.
 *
 * Requests go through the same providers Hearth's chat uses (streaming, tool calls, cancellation);
 * the message conversion is src/core/llm/lmParts.ts. Keys stay in Hearth: they were resolved from
 * its configuration and secret storage when the config loaded, and nothing here writes a setting;
 * error text is redacted before VS Code sees it (it logs failed requests). A workspace provider
 * whose endpoint or key waits for Workspace Trust is not offered in Restricted Mode (its defaults
 * would send the conversation somewhere the user did not choose). The editor's own models
 * (`githubcopilot`) are not offered back to it.
 */
import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import { estimateLmTokens } from '../../core/llm/lmParts';
import { respondForEditor } from '../../core/llm/lmResponse';
import type { LlmRuntime } from '../../core/llm/llmRuntime';
import { offeredProviders, splitOfferedModelId } from '../../core/llm/offeredModels';
import type { ModelInfo, ProviderSettings } from '../../core/llm/types';
import type { Redactor } from '../../core/logging/redactor';
import { fromPlainPart, toPlainMessage } from './lmPartsAdapter';

/** Input budget offered for a model whose backend reports no context window. */
const DEFAULT_INPUT_TOKENS = 32_768;

export interface HearthLanguageModelsDeps {
  runtime: LlmRuntime;
  /** The workspace keys Restricted Mode withholds right now (LoadedConfig.withheld). */
  withheld(): readonly { keyPath: string }[];
  redactor: Redactor;
  log: Logger;
}

export class HearthLanguageModels implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly log: Logger;

  constructor(private readonly deps: HearthLanguageModelsDeps) {
    this.log = deps.log.child('language models');
  }

  /** The configuration or a provider's models changed: VS Code asks for the list again. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Providers that may be offered: not the editor's own models, nothing waiting for trust. */
  private offered(): ProviderSettings[] {
    return offeredProviders(this.deps.runtime.selection.providers(), this.deps.withheld());
  }

  async provideLanguageModelChatInformation(
    _options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelChatInformation[]> {
    const offered = this.offered();
    const names = new Set(offered.map((p) => p.name));
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      const listing = await this.deps.runtime.catalog.list({ signal: abort.signal });
      const out: vscode.LanguageModelChatInformation[] = [];
      for (const entry of listing) {
        const settings = offered.find((p) => p.name === entry.provider);
        if (!settings || !names.has(entry.provider)) continue;
        let models: ModelInfo[] = entry.models.filter((m) => m.kind !== 'embedding');
        // A provider that cannot list (a runner not started yet, a hosted list without a key) still
        // offers its configured model, as Switch Model shows it.
        if (models.length === 0 && settings.model) models = [{ id: settings.model }];
        if (entry.error) this.log.debug(`${entry.provider}: listing failed (${entry.error.message}); offering ${models.map((m) => m.id).join(', ') || 'nothing'}`);
        for (const model of models) out.push(this.information(settings, model));
      }
      return out;
    } catch (error) {
      this.log.warn(`listing Hearth's models for VS Code failed: ${this.deps.redactor.redact(describeError(error))}`);
      return [];
    } finally {
      cancel.dispose();
    }
  }

  private information(settings: ProviderSettings, model: ModelInfo): vscode.LanguageModelChatInformation {
    return {
      id: `${settings.name}/${model.id}`,
      name: `${model.id} (${settings.name})`,
      family: settings.type,
      version: settings.type,
      detail: 'Hearth',
      tooltip: `Hearth provider "${settings.name}" (${settings.type})${settings.endpoint ? ` at ${settings.endpoint}` : ''}`,
      maxInputTokens: model.contextLength ?? DEFAULT_INPUT_TOKENS,
      maxOutputTokens: settings.maxTokens,
      capabilities: { toolCalling: true },
    };
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const id = splitOfferedModelId(model.id);
    const settings = id ? this.offered().find((p) => p.name === id.provider) : undefined;
    if (!id || !settings) {
      throw new Error(`Hearth: the model "${model.id}" is not configured any more${this.deps.withheld().length > 0 ? ' or waits for Workspace Trust' : ''}; pick another one.`);
    }
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      const request = { messages: messages.map(toPlainMessage), model: id.model, ...(options.tools ? { tools: options.tools } : {}) };
      await respondForEditor(this.deps.runtime.provider(settings), request, (part) => {
        const out = fromPlainPart(part);
        if (out) progress.report(out);
      }, abort.signal, this.deps.redactor);
    } finally {
      cancel.dispose();
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return estimateLmTokens(typeof text === 'string' ? text : toPlainMessage(text));
  }
}
