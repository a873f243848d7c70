var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpStreamBackends } from './stream-backends.provider.js';
import { MCP_RESOURCE_UPDATED_CHANNEL } from './stream-backends.js';
import { isStandaloneStream, newStreamId } from './stream-ids.js';
import { SseWriter } from './sse-writer.js';
/**
 * The standalone `GET` streams (Streamable HTTP, "Listening for Messages from the Server") this
 * process holds, and what reaches them: `notifications/resources/updated` for the URIs their
 * session subscribed to, whichever replica announced the change on `MCP_RESOURCE_UPDATED_CHANNEL`.
 * Every replica hears every announcement and serves only the streams it holds, so each
 * notification goes out once. A stream that carried nothing for `idleStreamMs` is closed.
 */
let StandaloneStreams = class StandaloneStreams {
    options;
    backends;
    logger = new Logger('McpStreams');
    open = new Set();
    unsubscribe;
    constructor(options, backends) {
        this.options = options;
        this.backends = backends;
    }
    async onApplicationBootstrap() {
        if (!this.options.streams)
            return;
        this.unsubscribe = await this.backends.bus.subscribe(MCP_RESOURCE_UPDATED_CHANNEL, (payload) => {
            const uri = payload?.uri;
            if (typeof uri === 'string')
                this.resourceUpdated(uri).catch((error) => this.logger.warn(`resource update of ${uri} not delivered: ${error.message}`));
        });
    }
    async onModuleDestroy() {
        for (const stream of this.open)
            stream.close();
        await this.unsubscribe?.();
    }
    /**
     * Serves one `GET`: replays what the client missed after `Last-Event-ID` when that event is its
     * session's (another session's id is ignored), then stays open on the session's standalone
     * stream; a replayed request stream (a POST answer cut short) ends after its replay.
     */
    async serve(req, res, session, protocolVersion, release) {
        const lastEventId = req.headers['last-event-id'];
        const replay = typeof lastEventId === 'string' && lastEventId ? await this.backends.events.replayAfter(lastEventId, session.id) : undefined;
        const sse = new SseWriter(res);
        sse.open(protocolVersion, { 'Mcp-Session-Id': session.id });
        for (const event of replay?.events ?? [])
            sse.send(event.message, event.id);
        if (replay && !isStandaloneStream(replay.streamId)) {
            sse.end();
            release();
            return;
        }
        const streamId = replay?.streamId ?? newStreamId(session.id, 'get');
        let idle;
        const stream = {
            sessionId: session.id,
            streamId,
            send: async (message) => {
                sse.send(message, await this.backends.events.append(streamId, message));
                armIdle();
            },
            close: () => sse.end(),
        };
        const armIdle = () => {
            clearTimeout(idle);
            idle = setTimeout(() => stream.close(), this.options.streams.idleStreamMs);
            idle.unref();
        };
        armIdle();
        this.open.add(stream);
        res.once('close', () => {
            clearTimeout(idle);
            this.open.delete(stream);
            release();
        });
    }
    /** Ends this process's streams of a session (`DELETE`). */
    closeSession(sessionId) {
        for (const stream of this.open)
            if (stream.sessionId === sessionId)
                stream.close();
    }
    async resourceUpdated(uri) {
        if (this.open.size === 0)
            return;
        const subscribed = new Set(await this.backends.sessions.subscribersOf(uri));
        const message = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
        await Promise.all([...this.open].filter((s) => subscribed.has(s.sessionId)).map((s) => s.send(message)));
    }
};
StandaloneStreams = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object, McpStreamBackends])
], StandaloneStreams);
export { StandaloneStreams };
//# sourceMappingURL=standalone-streams.js.map