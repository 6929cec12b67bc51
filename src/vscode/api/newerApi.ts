/**
 * What of the API newer than `engines.vscode` (1.100) this editor has, asked at run time
 * (DESIGN.md decision 21): on an older editor the feature is simply not registered, never an error.
 */
import * as vscode from 'vscode';

/** `vscode.lm.registerLanguageModelChatProvider` (stable since 1.104), when the editor has it. */
export function languageModelChatProviderApi(): ((vendor: string, provider: vscode.LanguageModelChatProvider) => vscode.Disposable) | undefined {
  const register = (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider;
  return typeof register === 'function' ? (register as (vendor: string, provider: vscode.LanguageModelChatProvider) => vscode.Disposable).bind(vscode.lm) : undefined;
}

/** `vscode.LanguageModelDataPart` (1.105+), when the editor has it. */
export function dataPartClass(): typeof vscode.LanguageModelDataPart | undefined {
  const value = (vscode as { LanguageModelDataPart?: unknown }).LanguageModelDataPart;
  return typeof value === 'function' ? (value as typeof vscode.LanguageModelDataPart) : undefined;
}

/**
 * Whether the editor has a Chat view to reach a chat participant in. 1.100 registers participants
 * but shows no Chat view in code-server; 1.139 runs them without a sign-in once a model is
 * registered — which is what the language model chat provider API tells apart.
 */
export function hasChatView(): boolean {
  return languageModelChatProviderApi() !== undefined;
}
