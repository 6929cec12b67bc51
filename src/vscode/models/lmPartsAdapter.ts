/**
 * VS Code's language model message classes ⇄ the plain shapes of src/core/llm/lmParts.ts, where
 * the conversion itself lives (and is unit-tested). Only `instanceof` checks and constructors here.
 */
import * as vscode from 'vscode';
import type { LmMessage, LmPart, LmRole } from '../../core/llm/lmParts';
import { dataPartClass } from '../api/newerApi';

/** LanguageModelChatMessageRole.System (3) is not in the 1.100 types; a provider is sent it on 1.139. */
const SYSTEM_ROLE = 3;

function role(value: vscode.LanguageModelChatMessageRole): LmRole {
  if (value === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if ((value as number) === SYSTEM_ROLE) return 'system';
  return 'user';
}

export function toPlainPart(part: unknown): LmPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', value: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'tool_call', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'tool_result', callId: part.callId, content: part.content.map(toPlainPart) };
  const DataPart = dataPartClass();
  if (DataPart && part instanceof DataPart) return { kind: 'data', mimeType: part.mimeType, data: part.data };
  return { kind: 'unknown' };
}

export function toPlainMessage(message: { role: vscode.LanguageModelChatMessageRole; content: ReadonlyArray<unknown> | string }): LmMessage {
  const content = typeof message.content === 'string' ? [new vscode.LanguageModelTextPart(message.content)] : message.content;
  return { role: role(message.role), parts: content.map(toPlainPart) };
}

type ResponsePart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart;

/** A plain response part as VS Code's class; undefined for what has none (an unknown part). */
export function fromPlainPart(part: LmPart): ResponsePart | undefined {
  if (part.kind === 'text') return new vscode.LanguageModelTextPart(part.value);
  if (part.kind === 'tool_call') return new vscode.LanguageModelToolCallPart(part.callId, part.name, (part.input ?? {}) as object);
  if (part.kind === 'tool_result') {
    const content = part.content.map(fromPlainPart).filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart);
    return new vscode.LanguageModelToolResultPart(part.callId, content);
  }
  return undefined;
}

/** Plain messages as VS Code's (user and assistant only: the lm API has no system role for requests). */
export function fromPlainMessages(messages: readonly LmMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((message) => {
    const parts = message.parts.map(fromPlainPart).filter((p) => p !== undefined);
    if (message.role === 'assistant') {
      const said = parts.filter((p) => !(p instanceof vscode.LanguageModelToolResultPart)) as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[];
      return vscode.LanguageModelChatMessage.Assistant(said);
    }
    const asked = parts.filter((p) => !(p instanceof vscode.LanguageModelToolCallPart)) as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[];
    return vscode.LanguageModelChatMessage.User(asked);
  });
}
