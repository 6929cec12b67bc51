import type { HistoryMessage } from '../../agentSession';

/** A loaded session's history is kept up to this many messages and characters (a year-long session must not fill memory). */
export const REPLAY_LIMITS = { messages: 2_000, chars: 2_000_000 } as const;

/**
 * The history an agent replays during `session/load` (`user_message_chunk` / `agent_message_chunk`
 * updates), as alternating messages for the panel. Chunks of one role merge into one message.
 */
export class ReplayCollector {
  readonly messages: HistoryMessage[] = [];
  private chars = 0;

  add(update: Record<string, unknown>): void {
    const role = update.sessionUpdate === 'user_message_chunk' ? 'user' : update.sessionUpdate === 'agent_message_chunk' ? 'assistant' : undefined;
    const content = update.content as { type?: unknown; text?: unknown } | undefined;
    if (!role || content?.type !== 'text' || typeof content.text !== 'string') return;
    const room = REPLAY_LIMITS.chars - this.chars;
    if (room <= 0) return;
    const text = content.text.slice(0, room);
    this.chars += text.length;
    const last = this.messages[this.messages.length - 1];
    if (last?.role === role) last.text += text;
    else if (this.messages.length < REPLAY_LIMITS.messages) this.messages.push({ role, text });
  }
}
