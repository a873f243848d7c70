import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
/** Severity order of `LoggingLevel` (RFC 5424, as MCP's logging utility uses it). */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/**
 * What a handler can send to the client while its call runs, in stream mode: progress, log
 * messages, and (handshake era) server→client requests. Built per request by the controller.
 */
export class CallStream {
    channel;
    era;
    meta;
    session;
    clientRequests;
    lastProgress = -Infinity;
    constructor(channel, era, meta, session, clientRequests) {
        this.channel = channel;
        this.era = era;
        this.meta = meta;
        this.session = session;
        this.clientRequests = clientRequests;
    }
    get signal() {
        return this.channel.signal;
    }
    /** `notifications/progress` for the request's `_meta.progressToken`; nothing without one (MCP progress utility). */
    async progress(done, total, message) {
        const progressToken = this.meta.progressToken;
        if ((typeof progressToken !== 'string' && typeof progressToken !== 'number') || !Number.isFinite(done))
            return;
        // "The progress value MUST increase with each notification": a report that does not is dropped.
        if (done <= this.lastProgress)
            return;
        this.lastProgress = done;
        await this.channel.notify({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken, progress: done, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
        });
    }
    async log(level, data, logger) {
        const threshold = this.threshold();
        if (threshold === undefined || LEVELS.indexOf(level) < LEVELS.indexOf(threshold))
            return;
        await this.channel.notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data, ...(logger ? { logger } : {}) } });
    }
    /** A server→client request over this call's stream (handshake era, with a session). */
    ask(method, params) {
        return this.clientRequests.ask(this.channel, this.session.id, method, params);
    }
    get hasSession() {
        return !!this.session;
    }
    /** Whether a server→client request can go out now: a session, and an answer that can become SSE. */
    get canAsk() {
        return !!this.session && this.channel.canStream;
    }
    /** The least severe level the client wants; undefined: none. */
    threshold() {
        if (this.era === 'stateless') {
            const requested = this.meta[LOG_LEVEL_META_KEY];
            return LEVELS.includes(requested) ? requested : undefined;
        }
        // Handshake era: everything until the client narrows it with logging/setLevel (as the official SDK server does).
        return this.session?.logLevel ?? 'debug';
    }
}
export function isLoggingLevel(value) {
    return LEVELS.includes(value);
}
//# sourceMappingURL=call-stream.js.map