import { eventId, parseEventId, sessionOfStream } from '../stream-event-id.js';
/**
 * Replayable events in this process, for the embedded database. Not the `mcp_stream_events`
 * table there: events are appended while a tool call's transaction is open, and PGlite serves one
 * transaction at a time, so a write on another connection would wait for the call that waits for
 * it. Bounded like the shared stores: by age and per stream.
 */
export class InProcessEventStore {
    limits;
    streams = new Map();
    position = 0;
    constructor(limits) {
        this.limits = limits;
    }
    async append(streamId, message) {
        const now = Date.now();
        const events = this.streams.get(streamId) ?? [];
        events.push({ position: ++this.position, message: structuredClone(message), at: now });
        if (events.length > this.limits.maxPerStream)
            events.splice(0, events.length - this.limits.maxPerStream);
        this.streams.set(streamId, events);
        this.prune(now);
        return eventId(streamId, String(this.position));
    }
    async replayAfter(lastEventId, sessionId) {
        const parsed = parseEventId(lastEventId);
        if (!parsed || !/^[1-9][0-9]{0,15}$/.test(parsed.position) || sessionOfStream(parsed.streamId) !== sessionId)
            return undefined;
        this.prune(Date.now());
        const events = this.streams.get(parsed.streamId);
        const after = Number(parsed.position);
        if (!events?.some((event) => event.position === after))
            return undefined;
        return {
            streamId: parsed.streamId,
            events: events
                .filter((event) => event.position > after)
                .map((event) => ({ id: eventId(parsed.streamId, String(event.position)), message: structuredClone(event.message) })),
        };
    }
    prune(now) {
        const oldest = now - this.limits.retentionMs;
        for (const [streamId, events] of this.streams) {
            const keep = events.findIndex((event) => event.at >= oldest);
            if (keep === -1)
                this.streams.delete(streamId);
            else if (keep > 0)
                events.splice(0, keep);
        }
    }
}
//# sourceMappingURL=in-process-event.store.js.map