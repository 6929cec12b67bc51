import type * as acp from '@agentclientprotocol/sdk';
import type { AgentEvent, AgentStopReason, ContextUsage, PlanEntry, ToolCallStatus } from '../../agentSession';

export interface TrackedToolCall {
  title: string;
  kind?: string;
  status: ToolCallStatus;
  rawInput?: unknown;
}

/** What a session remembers about its tool calls across updates (titles, last status, denials). */
export class ToolCallTracker {
  readonly calls = new Map<string, TrackedToolCall>();
  readonly denied = new Set<string>();
}

export type UpdateResult = { events: AgentEvent[] } | { invalid: string };

const TOOL_STATUSES = new Set(['pending', 'in_progress', 'completed', 'failed']);
const PLAN_STATUSES = new Set(['pending', 'in_progress', 'completed']);

/**
 * Turns one `session/update` into the events every agent produces. Checked by hand rather than
 * trusted: a malformed update is reported as `invalid` (logged by the caller, the turn goes on),
 * and kinds with nothing to show (commands, modes, notices) give no events.
 */
export function updateToEvents(update: unknown, tracker: ToolCallTracker): UpdateResult {
  if (!isRecord(update) || typeof update.sessionUpdate !== 'string') return { invalid: 'update without "sessionUpdate"' };
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      if (!isRecord(update.content) || typeof update.content.type !== 'string') return { invalid: `${update.sessionUpdate} without content` };
      const text = contentText(update.content);
      if (text === undefined) return { events: [] };
      return { events: [{ type: update.sessionUpdate === 'agent_message_chunk' ? 'text' : 'thought', text }] };
    }
    case 'tool_call': {
      if (typeof update.toolCallId !== 'string' || typeof update.title !== 'string') return { invalid: 'tool_call without toolCallId or title' };
      const status = toolStatus(update.status, 'pending');
      if (status === undefined) return { invalid: `tool_call with unknown status "${String(update.status)}"` };
      const kind = typeof update.kind === 'string' ? update.kind : undefined;
      tracker.calls.set(update.toolCallId, { title: update.title, kind, status, rawInput: update.rawInput });
      return { events: [{ type: 'tool_call', id: update.toolCallId, name: kind ?? 'other', title: update.title, arguments: update.rawInput, status }] };
    }
    case 'tool_call_update': {
      if (typeof update.toolCallId !== 'string') return { invalid: 'tool_call_update without toolCallId' };
      const known = tracker.calls.get(update.toolCallId);
      const status = toolStatus(update.status, known?.status ?? 'in_progress');
      if (status === undefined) return { invalid: `tool_call_update with unknown status "${String(update.status)}"` };
      const shown: ToolCallStatus = status === 'failed' && tracker.denied.has(update.toolCallId) ? 'denied' : status;
      const events: AgentEvent[] = [];
      if (!known) {
        // An update for a call never announced: announce it, so surfaces have something to update.
        const title = typeof update.title === 'string' ? update.title : update.toolCallId;
        const kind = typeof update.kind === 'string' ? update.kind : undefined;
        events.push({ type: 'tool_call', id: update.toolCallId, name: kind ?? 'other', title, arguments: update.rawInput, status: shown });
        tracker.calls.set(update.toolCallId, { title, kind, status: shown, rawInput: update.rawInput });
      } else {
        known.status = shown;
        if (typeof update.title === 'string') known.title = update.title;
      }
      const result = toolResult(update.content, update.rawOutput);
      events.push({ type: 'tool_update', id: update.toolCallId, status: shown, ...(result !== undefined ? { result } : {}), ...(shown === 'failed' || shown === 'denied' ? { isError: true } : {}) });
      return { events };
    }
    case 'plan': {
      if (!Array.isArray(update.entries)) return { invalid: 'plan without entries' };
      const entries: PlanEntry[] = [];
      for (const entry of update.entries) {
        if (!isRecord(entry) || typeof entry.content !== 'string' || !PLAN_STATUSES.has(entry.status as string)) return { invalid: 'plan entry without content or a known status' };
        entries.push({ content: entry.content, status: entry.status as PlanEntry['status'], ...(typeof entry.priority === 'string' ? { priority: entry.priority as PlanEntry['priority'] } : {}) });
      }
      return { events: [{ type: 'plan', entries }] };
    }
    case 'usage_update': {
      // `used: null` is what claude-agent-acp sends before it knows: the size alone is still shown.
      if (!isCount(update.size)) return { invalid: 'usage_update without a size' };
      if (update.used !== undefined && update.used !== null && !isCount(update.used)) return { invalid: 'usage_update with a non-numeric "used"' };
      const context: ContextUsage = { ...(isCount(update.used) ? { used: update.used } : {}), size: update.size };
      const cost = update.cost;
      if (isRecord(cost) && typeof cost.amount === 'number' && Number.isFinite(cost.amount) && typeof cost.currency === 'string') context.cost = { amount: cost.amount, currency: cost.currency };
      return { events: [{ type: 'usage', context }] };
    }
    default:
      return { events: [] };
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function toolStatus(value: unknown, fallback: ToolCallStatus): ToolCallStatus | undefined {
  if (value === undefined || value === null) return fallback;
  return TOOL_STATUSES.has(value as string) ? (value as ToolCallStatus) : undefined;
}

/** Text of a content block; links and embedded resources are shown by name, media not at all. */
function contentText(block: Record<string, unknown>): string | undefined {
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : undefined;
  if (block.type === 'resource_link' && typeof block.uri === 'string') return `[${typeof block.name === 'string' ? block.name : block.uri}](${block.uri})`;
  if (block.type === 'resource' && isRecord(block.resource)) return typeof block.resource.text === 'string' ? block.resource.text : undefined;
  return undefined;
}

function toolResult(content: unknown, rawOutput: unknown): string | undefined {
  if (Array.isArray(content) && content.length > 0) {
    const parts: string[] = [];
    for (const item of content) {
      if (!isRecord(item)) continue;
      if (item.type === 'content' && isRecord(item.content)) {
        const text = contentText(item.content);
        if (text !== undefined) parts.push(text);
      } else if (item.type === 'diff' && typeof item.path === 'string') {
        parts.push(`edited ${item.path}`);
      } else if (item.type === 'terminal' && typeof item.terminalId === 'string') {
        parts.push(`terminal ${item.terminalId}`);
      }
    }
    if (parts.length) return parts.join('\n');
  }
  if (rawOutput === undefined || rawOutput === null) return undefined;
  return typeof rawOutput === 'string' ? rawOutput : JSON.stringify(rawOutput);
}

/** Why the agent ended a turn, in the words every agent uses (unknown reasons read as a normal end). */
export function stopReasonOf(reason: acp.StopReason): AgentStopReason {
  switch (reason) {
    case 'end_turn':
    case 'cancelled':
    case 'max_tokens':
    case 'refusal':
      return reason;
    case 'max_turn_requests':
      return 'max_steps';
    default:
      return 'end_turn';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
