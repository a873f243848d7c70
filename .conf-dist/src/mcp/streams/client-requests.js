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
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { McpStreamBackends } from './stream-backends.provider.js';
const PREFIX = 'mcp-srv';
/**
 * Server→client requests of the handshake era (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`). The request goes out on the call's SSE stream; the client answers with a new POST,
 * perhaps on another replica, which publishes the answer on the message bus, where the waiting
 * handler listens. The request id binds the session and an expiry under an HMAC (the
 * `requestState` secret, shared by the replicas), so an answer for an id this server did not issue,
 * issued to another session, or too late, is refused where it arrives.
 */
let ClientRequests = class ClientRequests {
    options;
    backends;
    key;
    constructor(options, backends) {
        this.options = options;
        this.backends = backends;
        const secret = options.requestState.secret;
        this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
    }
    /**
     * Sends `method` to the client on `channel` and resolves with its result. Fails with a clear
     * error when the client cannot be asked, answers with an error, does not answer in time, or the
     * call is aborted (the client disconnected).
     */
    async ask(channel, sessionId, method, params) {
        const timeoutMs = this.options.streams.clientRequestTimeoutMs;
        const id = this.issueId(sessionId, Date.now() + timeoutMs);
        let settle;
        const answered = new Promise((resolve) => (settle = resolve));
        // Listen before asking: an answer may come back before `request` returns.
        const unsubscribe = await this.backends.bus.subscribe(answerChannel(id), (payload) => settle(payload));
        const timer = setTimeout(() => settle(new McpProtocolError(McpErrorCode.InternalError, `The client did not answer ${method} within ${timeoutMs} ms. Nothing was done.`, HttpStatus.OK)), timeoutMs);
        const onAbort = () => settle(channel.signal.reason instanceof Error ? channel.signal.reason : new Error('Call aborted'));
        channel.signal.addEventListener('abort', onAbort, { once: true });
        // Aborted while the subscription was being made: the event has already fired.
        if (channel.signal.aborted)
            onAbort();
        try {
            const request = { jsonrpc: '2.0', id, method, params };
            if (!(await channel.request(request))) {
                throw McpProtocolError.invalidRequest(`This call needs to ask the client (${method}), which needs an SSE answer: send Accept: application/json, text/event-stream. Nothing was done.`, HttpStatus.OK);
            }
            const answer = await answered;
            if (answer instanceof Error)
                throw answer;
            if ('error' in answer) {
                throw new McpProtocolError(McpErrorCode.InternalError, `The client refused ${method} (${answer.error.code}: ${String(answer.error.message).slice(0, 200)}). Nothing was done.`, HttpStatus.OK);
            }
            return answer.result;
        }
        finally {
            clearTimeout(timer);
            channel.signal.removeEventListener('abort', onAbort);
            await unsubscribe();
        }
    }
    /**
     * A client's answer (a JSON-RPC response POSTed in `sessionId`): handed to the waiting handler,
     * wherever it runs. Refused (`400`) when the id was not issued to this session or has expired.
     */
    async deliver(body, sessionId) {
        const id = body.id;
        if (typeof id !== 'string' || !this.verifyId(id, sessionId)) {
            throw McpProtocolError.invalidRequest(`Invalid response: id ${JSON.stringify(id ?? null)} does not name a pending request of this session (unknown, expired or another session's)`);
        }
        const answer = isRecord(body.error)
            ? { error: { code: Number(body.error.code), message: String(body.error.message ?? ''), data: body.error.data } }
            : { result: isRecord(body.result) ? body.result : {} };
        await this.backends.bus.publish(answerChannel(id), answer);
    }
    issueId(sessionId, expiresAt) {
        const nonce = randomUUID();
        return `${PREFIX}.${nonce}.${expiresAt}.${this.tag(sessionId, nonce, expiresAt)}`;
    }
    verifyId(id, sessionId) {
        const [prefix, nonce, expiry, tag, ...rest] = id.split('.');
        if (prefix !== PREFIX || rest.length || !nonce || !tag || !/^\d+$/.test(expiry ?? ''))
            return false;
        const expected = Buffer.from(this.tag(sessionId, nonce, Number(expiry)));
        const given = Buffer.from(tag);
        return expected.length === given.length && timingSafeEqual(expected, given) && Number(expiry) > Date.now();
    }
    tag(sessionId, nonce, expiresAt) {
        return createHmac('sha256', this.key).update(`mcp.clientRequest:${sessionId}\0${nonce}\0${expiresAt}`).digest('base64url');
    }
};
ClientRequests = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object, McpStreamBackends])
], ClientRequests);
export { ClientRequests };
/** Whether a POST body is a JSON-RPC response (a client's answer) rather than a request or notification. */
export function isJsonRpcResponse(body) {
    return isRecord(body) && body.jsonrpc === '2.0' && !('method' in body) && ('result' in body || 'error' in body) && 'id' in body;
}
function answerChannel(id) {
    return `mcp:client-answer:${id}`;
}
function isRecord(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}
//# sourceMappingURL=client-requests.js.map