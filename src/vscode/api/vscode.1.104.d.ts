/**
 * The stable VS Code API Hearth uses beyond its `engines.vscode` floor (1.100): the language model
 * chat provider (stable since 1.104) and the data part of language model messages. `@types/vscode`
 * stays at 1.100 (vsce refuses types newer than `engines`), so these are declared here, as the
 * stable API declares them, and every use checks at run time that the editor has them
 * (`newerApi.ts`): on 1.100 they are undefined and Hearth simply does not register them.
 */
import 'vscode';

declare module 'vscode' {
  export interface LanguageModelChatCapabilities {
    readonly imageInput?: boolean;
    readonly toolCalling?: boolean | number;
  }

  export interface LanguageModelChatInformation {
    readonly id: string;
    readonly name: string;
    readonly family: string;
    readonly tooltip?: string;
    readonly detail?: string;
    readonly version: string;
    readonly maxInputTokens: number;
    readonly maxOutputTokens: number;
    readonly capabilities: LanguageModelChatCapabilities;
  }

  export interface PrepareLanguageModelChatModelOptions {
    readonly silent: boolean;
  }

  export interface ProvideLanguageModelChatResponseOptions {
    readonly modelOptions?: { readonly [name: string]: unknown };
    readonly tools?: readonly LanguageModelChatTool[];
    readonly toolMode: LanguageModelChatToolMode;
  }

  export interface LanguageModelChatRequestMessage {
    readonly role: LanguageModelChatMessageRole;
    readonly content: ReadonlyArray<LanguageModelTextPart | LanguageModelToolResultPart | LanguageModelToolCallPart | LanguageModelDataPart | unknown>;
    readonly name: string | undefined;
  }

  export type LanguageModelResponsePart = LanguageModelTextPart | LanguageModelToolResultPart | LanguageModelToolCallPart | LanguageModelDataPart;

  export interface LanguageModelChatProvider<T extends LanguageModelChatInformation = LanguageModelChatInformation> {
    readonly onDidChangeLanguageModelChatInformation?: Event<void>;
    provideLanguageModelChatInformation(options: PrepareLanguageModelChatModelOptions, token: CancellationToken): ProviderResult<T[]>;
    provideLanguageModelChatResponse(
      model: T,
      messages: readonly LanguageModelChatRequestMessage[],
      options: ProvideLanguageModelChatResponseOptions,
      progress: Progress<LanguageModelResponsePart>,
      token: CancellationToken,
    ): Thenable<void>;
    provideTokenCount(model: T, text: string | LanguageModelChatRequestMessage, token: CancellationToken): Thenable<number>;
  }

  export class LanguageModelDataPart {
    mimeType: string;
    data: Uint8Array;
    constructor(data: Uint8Array, mimeType: string);
  }

  export namespace lm {
    /** Stable since 1.104; undefined on older editors (check before calling). */
    export const registerLanguageModelChatProvider: ((vendor: string, provider: LanguageModelChatProvider) => Disposable) | undefined;
  }
}
