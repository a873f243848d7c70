import { sendJson } from '../transport/json-rpc-response.js';
import { SseWriter } from './sse-writer.js';
import { newStreamId } from './stream-ids.js';
/**
 * The answer to one POST in stream mode. It stays plain JSON until the handler emits something
 * (a notification, a server→client request); then, when the client's `Accept` lists
 * `text/event-stream`, it becomes an SSE stream: what was emitted, then the response (Streamable
 * HTTP: "the server MAY send JSON-RPC requests and notifications before sending the JSON-RPC
 * response"). A client that accepts only JSON gets the response alone. Events of a session's
 * stream carry ids from the event store, so a client can resume it with `Last-Event-ID`.
 */
export class ResponseChannel {
    res;
    protocolVersion;
    sessionId;
    deps;
    signal;
    acceptsSse;
    sse;
    abort = new AbortController();
    streamId;
    releaseSlot;
    streamRefused = false;
    finished = false;
    /** Writes happen in order even though each waits for its event id. */
    tail = Promise.resolve();
    constructor(req, res, protocolVersion, sessionId, deps) {
        this.res = res;
        this.protocolVersion = protocolVersion;
        this.sessionId = sessionId;
        this.deps = deps;
        this.signal = this.abort.signal;
        this.acceptsSse = acceptsEventStream(req.headers.accept);
        this.sse = new SseWriter(res);
        // The client went away before the answer was complete: the handler's signal aborts.
        res.once('close', () => {
            this.releaseSlot?.();
            if (!this.finished)
                this.abort.abort(new Error('The client disconnected before the answer was complete'));
        });
    }
    /** Whether messages can reach the client before the response (SSE accepted and a stream slot free). */
    get canStream() {
        return this.acceptsSse && !this.streamRefused && !this.finished;
    }
    get streaming() {
        return this.sse.isOpen;
    }
    /** Aborts the call (the client cancelled it): its signal aborts, the dispatcher fails it. */
    cancel(reason) {
        if (!this.finished)
            this.abort.abort(reason);
    }
    /** Sends a notification on the stream; dropped when the client takes JSON only. */
    notify(notification) {
        return this.emit(notification);
    }
    /** Sends a server→client request on the stream; false when it cannot (JSON-only client, limits). */
    async request(request) {
        if (!this.openStream())
            return false;
        await this.emit(request);
        return true;
    }
    /** The final answer: the last event of the stream, or a plain JSON body. */
    async respond(message) {
        await this.tail;
        this.finished = true;
        if (this.sse.isOpen) {
            await this.write(message);
            this.sse.end();
        }
        else if (!this.res.headersSent && !this.res.destroyed) {
            sendJson(this.res, 200, message);
        }
    }
    emit(message) {
        if (!this.openStream())
            return Promise.resolve();
        this.tail = this.tail.then(() => this.write(message));
        return this.tail;
    }
    async write(message) {
        const eventId = this.streamId ? await this.deps.events.append(this.streamId, message) : undefined;
        this.sse.send(message, eventId);
    }
    openStream() {
        if (this.sse.isOpen)
            return true;
        if (!this.canStream || this.res.headersSent)
            return false;
        this.releaseSlot = this.deps.acquireStream();
        if (!this.releaseSlot) {
            this.streamRefused = true;
            return false;
        }
        if (this.sessionId)
            this.streamId = newStreamId(this.sessionId, 'post');
        this.sse.open(this.protocolVersion(), this.sessionId ? { 'Mcp-Session-Id': this.sessionId } : {});
        return true;
    }
}
/** Whether an `Accept` header lists `text/event-stream` explicitly (a bare wildcard, as curl sends, keeps JSON). */
export function acceptsEventStream(accept) {
    if (!accept)
        return false;
    return accept.split(',').some((part) => {
        const type = part.split(';')[0].trim().toLowerCase();
        return type === 'text/event-stream';
    });
}
//# sourceMappingURL=response-channel.js.map