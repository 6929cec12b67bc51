/**
 * Hearth's agent events as ACP `session/update`s, for `hearth acp`: text and thoughts as chunks,
 * tool calls with their kind and status (a denial is `failed`), plans; the inverse of the client's
 * updateEvents.ts. History (a loaded session) replays as user and agent message chunks.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentEvent, HistoryMessage } from '../agentSession';

const READ_TOOLS = /^(read_note|list_notes|get_links|related_notes|unlinked_mentions|note_properties)$/;
const SEARCH_TOOLS = /search/;
const EDIT_TOOLS = /^(create_note|edit_note|update_note|append_note|write_note)$/;

function toolKind(name: string): acp.ToolKind {
  if (SEARCH_TOOLS.test(name)) return 'search';
  if (READ_TOOLS.test(name)) return 'read';
  if (EDIT_TOOLS.test(name)) return 'edit';
  if (/delete/.test(name)) return 'delete';
  if (/move/.test(name)) return 'move';
  return 'other';
}

export function eventToUpdate(event: AgentEvent): acp.SessionUpdate | undefined {
  switch (event.type) {
    case 'text':
      return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } };
    case 'thought':
      return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } };
    case 'tool_call':
      return { sessionUpdate: 'tool_call', toolCallId: event.id, title: event.title ?? event.name, kind: toolKind(event.name), status: event.status === 'denied' ? 'failed' : event.status, rawInput: event.arguments };
    case 'tool_update':
      return {
        sessionUpdate: 'tool_call_update',
        toolCallId: event.id,
        status: event.status === 'denied' ? 'failed' : event.status,
        ...(event.result !== undefined ? { content: [{ type: 'content', content: { type: 'text', text: event.result } }] } : {}),
      };
    case 'plan':
      return { sessionUpdate: 'plan', entries: event.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority ?? 'medium' })) };
    case 'error':
      // The client shows agent text; an error is said in words (the stop reason alone says little).
      return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n**Error** (${event.code}): ${event.message}${event.remedy ? `\n${event.remedy}` : ''}` } };
    default:
      return undefined;
  }
}

export function historyUpdates(history: HistoryMessage[]): acp.SessionUpdate[] {
  return history.map((m) => ({ sessionUpdate: m.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'text', text: m.text } }));
}

export function stopReasonFor(reason: Extract<AgentEvent, { type: 'done' }>['stopReason']): acp.StopReason {
  switch (reason) {
    case 'cancelled':
    case 'max_tokens':
    case 'refusal':
    case 'end_turn':
      return reason;
    case 'max_steps':
      return 'max_turn_requests';
    default:
      return 'end_turn';
  }
}
