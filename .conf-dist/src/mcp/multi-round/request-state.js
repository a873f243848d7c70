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
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { InMemoryRequestStateStore, MCP_REQUEST_STATE_STORE } from './request-state.store.js';
/**
 * Seals and opens the opaque `requestState` of multi round-trip requests (2026-07-28, SEP-2322).
 * The state is HMAC-signed by the official SDK's codec (not encrypted: never put secrets in it),
 * expires, is bound to the caller, the method, the tool/prompt/resource and the hash of the
 * arguments, and is accepted once (the `MCP_REQUEST_STATE_STORE` decides, across replicas when it
 * is shared). Any failure is a JSON-RPC `-32602` with a sentence saying what to do.
 */
let McpRequestState = class McpRequestState {
    store;
    codec;
    key;
    ttlMs;
    pendingUses = new WeakMap();
    constructor(options, store = new InMemoryRequestStateStore()) {
        this.store = store;
        const secret = options.requestState.secret;
        if (secret === undefined) {
            new Logger('McpRequestState').warn('No requestState secret configured: using a random per-process key. Replicas must share one (McpModule option requestState.secret).');
        }
        this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
        this.ttlMs = options.requestState.ttlSeconds * 1000;
        this.codec = createRequestStateCodec({ key: this.key, ttlSeconds: options.requestState.ttlSeconds });
    }
    /**
     * Seals `payload` for a retry of exactly this call. With `recordUse: 'by-handler'` opening the
     * state does not record its use: the handler must call `recordUse(invocation, …)` before it acts
     * on the answer (the confirmation does, so that a "no" stays spent although its call rolls back).
     */
    async seal(payload, invocation, options = {}) {
        const sealed = { p: payload, j: randomUUID(), x: Date.now() + this.ttlMs, b: this.tag(invocation) };
        if (options.recordUse === 'by-handler')
            sealed.h = 1;
        return this.codec.mint(sealed);
    }
    /**
     * Records the use of the state `invocation` carried, when it was sealed `recordUse: 'by-handler'`
     * (otherwise `open` already did, and this does nothing). `final`: the use sticks even if the call
     * then fails and rolls back. Refused (-32602) when the state was used meanwhile.
     */
    async recordUse(invocation, options) {
        const pending = this.pendingUses.get(invocation);
        if (!pending)
            return;
        this.pendingUses.delete(invocation);
        if (!(await this.store.consume(pending.id, pending.expiresAt, { final: options.final }))) {
            throw invalidState('it was already used once');
        }
    }
    /**
     * Verifies an echoed state for this call and marks it used (or, for a state sealed
     * `recordUse: 'by-handler'`, leaves that to the handler); returns the handler's payload.
     */
    async open(state, invocation) {
        if (typeof state !== 'string' || state.length === 0 || state.length > 16_384) {
            throw invalidState('it must be the exact string the server returned');
        }
        let sealed;
        try {
            sealed = await this.codec.verify(state, undefined);
        }
        catch (error) {
            const reason = error.message;
            throw invalidState(reason === 'expired' ? 'it has expired' : 'it failed its integrity check (altered or not issued by this server)');
        }
        if (!sameTag(sealed.b, this.tag(invocation))) {
            throw invalidState('it was issued for another call (different caller, tool or arguments)');
        }
        if (sealed.h === 1) {
            this.pendingUses.set(invocation, { id: sealed.j, expiresAt: new Date(sealed.x) });
        }
        else if (!(await this.store.consume(sealed.j, new Date(sealed.x)))) {
            throw invalidState('it was already used once');
        }
        return sealed.p;
    }
    tag(invocation) {
        const binding = [invocation.callerKey ?? '', invocation.method, invocation.name, invocation.argumentsHash ?? ''].join('\0');
        return createHmac('sha256', this.key).update(`mcp.requestState.bind:${binding}`).digest('base64url');
    }
};
McpRequestState = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __param(1, Optional()),
    __param(1, Inject(MCP_REQUEST_STATE_STORE)),
    __metadata("design:paramtypes", [Object, Object])
], McpRequestState);
export { McpRequestState };
function sameTag(a, b) {
    if (typeof a !== 'string' || a.length !== b.length)
        return false;
    return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
function invalidState(why) {
    return McpProtocolError.invalidParams(`Invalid requestState: ${why}. Call again without requestState and inputResponses to start over.`);
}
//# sourceMappingURL=request-state.js.map