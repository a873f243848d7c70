import { sessionOfStream } from '../stream-ids.js';
/**
 * Events of this process's streams, for `Last-Event-ID` replay: the default for one replica.
 * Bounded by count and age; event ids are `<streamId>#<sequence>`.
 */
export class InMemoryEventStore {
    maxEvents;
    maxAgeMs;
    events = new Map();
    sequence = 0;
    constructor(maxEvents = 10_000, maxAgeMs = 15 * 60_000) {
        this.maxEvents = maxEvents;
        this.maxAgeMs = maxAgeMs;
    }
    async append(streamId, message) {
        const id = `${streamId}#${++this.sequence}`;
        this.events.set(id, { id, streamId, message, at: Date.now() });
        this.evict();
        return id;
    }
    async replayAfter(lastEventId, sessionId) {
        const last = this.events.get(lastEventId);
        if (!last || sessionOfStream(last.streamId) !== sessionId)
            return undefined;
        const events = [];
        let after = false;
        // A Map iterates in insertion order: the stream's events after the last one seen, in order.
        for (const event of this.events.values()) {
            if (event === last)
                after = true;
            else if (after && event.streamId === last.streamId)
                events.push({ id: event.id, message: event.message });
        }
        return { streamId: last.streamId, events };
    }
    evict() {
        const oldest = Date.now() - this.maxAgeMs;
        for (const [id, event] of this.events) {
            if (this.events.size <= this.maxEvents && event.at >= oldest)
                break;
            this.events.delete(id);
        }
    }
}
//# sourceMappingURL=in-memory-event.store.js.map