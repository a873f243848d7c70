import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { sessionOfStream } from '../stream-ids.js';
import type { McpEventStore } from '../../contracts/stream-backends.js';

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  at: number;
}

/**
 * Events of this process's streams, for `Last-Event-ID` replay: the default for one replica.
 * Bounded by count and age; event ids are `<streamId>#<sequence>`.
 */
export class InMemoryEventStore implements McpEventStore {
  private readonly events = new Map<string, StoredEvent>();
  private sequence = 0;

  constructor(
    private readonly maxEvents = 10_000,
    private readonly maxAgeMs = 15 * 60_000,
  ) {}

  async append(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}#${++this.sequence}`;
    this.events.set(id, { id, streamId, message, at: Date.now() });
    this.evict();
    return id;
  }

  async replayAfter(lastEventId: string, sessionId: string) {
    const last = this.events.get(lastEventId);
    if (!last || sessionOfStream(last.streamId) !== sessionId) return undefined;
    const events: { id: string; message: JSONRPCMessage }[] = [];
    let after = false;
    // A Map iterates in insertion order: the stream's events after the last one seen, in order.
    for (const event of this.events.values()) {
      if (event === last) after = true;
      else if (after && event.streamId === last.streamId) events.push({ id: event.id, message: event.message });
    }
    return { streamId: last.streamId, events };
  }

  async eventsOf(streamId: string) {
    const events: { id: string; message: JSONRPCMessage }[] = [];
    for (const event of this.events.values()) if (event.streamId === streamId) events.push({ id: event.id, message: event.message });
    return events;
  }

  private evict(): void {
    const oldest = Date.now() - this.maxAgeMs;
    for (const [id, event] of this.events) {
      if (this.events.size <= this.maxEvents && event.at >= oldest) break;
      this.events.delete(id);
    }
  }
}
