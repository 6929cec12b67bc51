// What the e2e files' scripted model (aimock) looks at in a chat request, and how they type into the
// chat panel: one copy for every file that drives an agent turn.
import type { Page } from 'playwright-core';
import { webviewFrame } from './harness';

export type ChatRequest = { model?: string; messages?: { role: string; content?: unknown }[] };

/** The whole conversation as text (for "did the tool result come back" predicates). */
export const requestText = (r: ChatRequest) => JSON.stringify(r.messages ?? []);

/** Tool results after the last user message: the agent's second request in a turn. */
export const toolsThisTurn = (r: ChatRequest) => {
  const messages = r.messages ?? [];
  return messages.slice(messages.map((m) => m.role).lastIndexOf('user') + 1).filter((m) => m.role === 'tool').length;
};

/** The last user message as sent (attachments and kiln context included). */
export const lastUserMessage = (r: ChatRequest) => {
  const content = [...(r.messages ?? [])].reverse().find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
};

/** What the user typed in the last message (attachments, such as the recap of earlier turns, come before it). */
export const lastTyped = (r: ChatRequest) => lastUserMessage(r).split('\n\n').pop() ?? '';

/** Types `message` into the chat panel's composer and sends it. */
export async function sendChat(page: Page, message: string): Promise<void> {
  const input = webviewFrame(page).locator('textarea.input');
  await input.fill(message);
  await input.press('Enter');
}
