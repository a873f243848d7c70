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
import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { headerValue } from '../protocol/protocol-version.js';
import { McpStreamBackends } from './stream-backends.provider.js';
export const HEADER_SESSION_ID = 'mcp-session-id';
/**
 * Handshake-era sessions in stream mode (Streamable HTTP, "Session Management"): `initialize`
 * creates one and its id goes back in `Mcp-Session-Id`; every later request must carry it. An
 * unknown or expired id, or one used with another caller's credentials, is `404` (the client
 * starts over with `initialize`); the store, not this process, holds them, so any replica can
 * serve any request of a session.
 */
let McpSessions = class McpSessions {
    options;
    backends;
    constructor(options, backends) {
        this.options = options;
        this.backends = backends;
    }
    async create(fields) {
        const now = Date.now();
        const session = {
            id: randomUUID(),
            ...fields,
            subscriptions: [],
            createdAt: new Date(now),
            expiresAt: new Date(now + this.ttlMs),
        };
        await this.backends.sessions.create(session);
        return session;
    }
    /** The session a request names, checked against its caller; its expiry pushed forward. */
    async require(req, callerKey) {
        const id = headerValue(req.headers, HEADER_SESSION_ID);
        if (!id) {
            throw McpProtocolError.invalidRequest('Bad request: Mcp-Session-Id header is required (send initialize first to get one)');
        }
        const session = await this.backends.sessions.get(id);
        if (!session || session.callerKey !== callerKey)
            throw sessionNotFound();
        // Sliding expiry, written at most once per tenth of the TTL: not one write per request.
        const expiresAt = Date.now() + this.ttlMs;
        if (expiresAt - session.expiresAt.getTime() > this.ttlMs / 10) {
            session.expiresAt = new Date(expiresAt);
            await this.backends.sessions.update(id, { expiresAt: session.expiresAt });
        }
        return session;
    }
    async end(session) {
        await this.backends.sessions.delete(session.id);
    }
    async setLogLevel(session, level) {
        session.logLevel = level;
        await this.backends.sessions.update(session.id, { logLevel: level });
    }
    /** Adds or removes one subscription. Read-modify-write of the list: a session's requests rarely race. */
    async setSubscribed(session, uri, subscribed) {
        const current = (await this.backends.sessions.get(session.id))?.subscriptions ?? session.subscriptions;
        const next = subscribed ? [...new Set([...current, uri])] : current.filter((u) => u !== uri);
        session.subscriptions = next;
        await this.backends.sessions.update(session.id, { subscriptions: next });
    }
    get ttlMs() {
        return this.options.streams.sessionTtlSeconds * 1000;
    }
};
McpSessions = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object, McpStreamBackends])
], McpSessions);
export { McpSessions };
export function sessionNotFound() {
    return new McpProtocolError(McpErrorCode.SessionNotFound, 'Session not found: it expired, was ended, or belongs to another caller. Send initialize to start a new session.', HttpStatus.NOT_FOUND);
}
//# sourceMappingURL=mcp-sessions.js.map