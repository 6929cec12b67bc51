// What the e2e files' scripted model (aimock) looks at in a chat request, and how they type into the
// chat panel: one copy for every file that drives an agent turn.
import type { Page } from 'playwright-core';
import { until, webviewFrame } from './harness';
import type { MockLlm } from '../unit/llm/mockLlm';

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

/**
 * Adds scripted replies to the mock: a request gets the reply of the first rule (in the order added)
 * whose predicate holds, so a turn's later request (tool results in it) comes before its first.
 */
export function scriptReplies(server: MockLlm) {
  return (when: (r: ChatRequest) => boolean, response: Record<string, unknown>, options: Record<string, unknown> = {}) =>
    server.mock.on({ predicate: when } as never, response as never, options as never);
}

/** A reply that calls one tool. */
export const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

/** A config table for a provider on the mock's OpenAI wire, its key read from the environment variable `keyEnv`. */
export function scriptedProvider(name: string, server: MockLlm, keyEnv: string, model = 'gpt-4o-mini'): string {
  return `[llm.providers.${name}]
type = "openai"
endpoint = "${server.url}/v1"
api_key = "{env:${keyEnv}}"
default_model = "${model}"
`;
}

/**
 * Types `message` into the chat panel's composer and sends it. The workbench may still be moving
 * focus when this starts (a quick pick that just closed gives focus back to where it was, and a
 * command opening an editor focuses it): keys sent meanwhile land there, not in the chat. So the
 * text is typed until the composer holds it, and Enter pressed until the composer has taken it.
 */
export async function sendChat(page: Page, message: string): Promise<void> {
  const input = webviewFrame(page).locator('textarea.input');
  await until('the message in the chat composer', async () => {
    if ((await input.inputValue()) !== message) await input.fill(message);
    return (await input.inputValue()) === message ? true : undefined;
  }, 15_000);
  await until('the chat composer to send the message', async () => {
    if ((await input.inputValue()) === message) await input.press('Enter');
    return (await input.inputValue()) === '' ? true : undefined;
  }, 15_000);
}
