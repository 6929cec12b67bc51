/**
 * Which of Hearth's contributions to VS Code's chat this editor can take (DESIGN.md decision 21),
 * asked at run time: `engines.vscode` stays at 1.100, so each API newer than the one a feature
 * needs is probed before it is used and, where missing, the feature is simply not registered —
 * never an error. Activation logs the outcome once, as one line, so a user (and the e2e suite on
 * both editors) can see what this editor got.
 */
import * as vscode from 'vscode';
import { languageModelChatProviderApi } from './newerApi';

export interface EditorContribution {
  /** What the user gets, in words. */
  what: string;
  /** The VS Code version whose API it needs. */
  since: string;
  present: boolean;
}

/** `vscode.chat.createChatParticipant` (1.90): `@hearth` in the Chat view. */
export function hasChatParticipantApi(): boolean {
  return typeof (vscode as { chat?: { createChatParticipant?: unknown } }).chat?.createChatParticipant === 'function';
}

/** `vscode.lm.registerTool` (1.95): the kiln tools for every agent in the editor. */
export function hasLanguageModelToolApi(): boolean {
  return typeof (vscode.lm as { registerTool?: unknown } | undefined)?.registerTool === 'function';
}

/** `vscode.lm.registerMcpServerDefinitionProvider` and `McpHttpServerDefinition` (in code-server's 1.100.3; stable in the 1.101 types): the gateway in VS Code's MCP support. */
export function hasMcpServerDefinitionApi(): boolean {
  const register = (vscode.lm as { registerMcpServerDefinitionProvider?: unknown } | undefined)?.registerMcpServerDefinitionProvider;
  return typeof register === 'function' && typeof (vscode as { McpHttpServerDefinition?: unknown }).McpHttpServerDefinition === 'function';
}

export function editorContributions(): EditorContribution[] {
  return [
    { what: 'the @hearth chat participant', since: '1.90', present: hasChatParticipantApi() },
    { what: 'the kiln tools as language model tools', since: '1.95', present: hasLanguageModelToolApi() },
    { what: 'the gateway as an MCP server definition', since: '1.100', present: hasMcpServerDefinitionApi() },
    { what: 'Hearth\'s models in the model picker', since: '1.104', present: languageModelChatProviderApi() !== undefined },
  ];
}

/** One line: what this editor got, and what it lacks (not registered, with the version that has it). */
export function describeEditorContributions(version: string, contributions: readonly EditorContribution[]): string {
  const got = contributions.filter((c) => c.present).map((c) => c.what);
  const lacks = contributions.filter((c) => !c.present).map((c) => `${c.what} (VS Code ${c.since}+)`);
  return `VS Code ${version}: registered ${got.join(', ') || 'none of the chat contributions'}${lacks.length > 0 ? `; not in this editor, so not registered: ${lacks.join(', ')}` : ''}`;
}
