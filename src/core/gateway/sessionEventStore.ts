import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events one HTTP session keeps for replay; the oldest go first (a client gone longer has lost them). */
export const MAX_STORED_EVENTS = 500;
/** What the HTTP gateway tells a client to wait before reconnecting a dropped stream (the SSE `retry` field). */
export const SSE_RETRY_MS = 1000;

/**
 * The HTTP gateway's memory of what it sent on each SSE stream of one session, so a client whose
 * stream dropped reconnects with `Last-Event-ID` and gets what it missed (MCP resumability); with
 * it the SDK also sends the priming event (an id and `retry`) that makes a stream resumable.
 * Bounded: a session keeps at most `max` events, whatever its clients do.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage }>();
  private next = 0;

  constructor(private readonly max = MAX_STORED_EVENTS) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${String(++this.next).padStart(12, '0')}`;
    this.events.set(id, { streamId, message });
    // A Map iterates in insertion order: the first key is the oldest event.
    while (this.events.size > this.max) this.events.delete(this.events.keys().next().value as EventId);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId ?? streamOf(eventId);
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const streamId = this.events.get(lastEventId)?.streamId ?? streamOf(lastEventId);
    if (!streamId) return '';
    let after = false;
    for (const [id, event] of this.events) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      // An id evicted already (or a priming event's, never stored): everything newer on its stream is what was missed.
      if (event.streamId === streamId && (after || id > lastEventId)) await send(id, event.message);
    }
    return streamId;
  }
}

function streamOf(eventId: EventId): StreamId | undefined {
  const cut = eventId.lastIndexOf('_');
  return cut > 0 ? eventId.slice(0, cut) : undefined;
}
