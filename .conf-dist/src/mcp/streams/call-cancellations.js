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
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { McpStreamBackends } from './stream-backends.provider.js';
const CHANNEL = 'mcp:call-cancelled';
/**
 * `notifications/cancelled` in the handshake era (MCP cancellation utility): the client's notice
 * may reach another replica than the one running the call, so it goes over the bus, on one channel
 * every replica listens to, and the replica that runs the call aborts it (its signal aborts and the
 * call's writes roll back, as when the client disconnects).
 */
let CallCancellations = class CallCancellations {
    options;
    backends;
    running = new Map();
    unsubscribe;
    constructor(options, backends) {
        this.options = options;
        this.backends = backends;
    }
    async onApplicationBootstrap() {
        if (!this.options.streams)
            return;
        this.unsubscribe = await this.backends.bus.subscribe(CHANNEL, (payload) => {
            const { sessionId, requestId, reason } = payload;
            const why = `The client cancelled the request${typeof reason === 'string' && reason ? ` (${reason.slice(0, 200)})` : ''}: the call was rolled back`;
            this.running.get(keyOf(sessionId, requestId))?.(new McpProtocolError(McpErrorCode.InternalError, why, HttpStatus.OK));
        });
    }
    async onModuleDestroy() {
        await this.unsubscribe?.();
    }
    /** Makes a running call of a session cancellable; the returned function ends that. */
    track(sessionId, requestId, cancel) {
        const key = keyOf(sessionId, requestId);
        this.running.set(key, cancel);
        return () => {
            if (this.running.get(key) === cancel)
                this.running.delete(key);
        };
    }
    /** A client's `notifications/cancelled`: to whichever replica runs the call (unknown ids are ignored, as the spec allows). */
    async cancel(sessionId, params) {
        const { requestId, reason } = params;
        if (typeof requestId !== 'string' && typeof requestId !== 'number')
            return;
        await this.backends.bus.publish(CHANNEL, { sessionId, requestId, ...(typeof reason === 'string' ? { reason } : {}) });
    }
};
CallCancellations = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object, McpStreamBackends])
], CallCancellations);
export { CallCancellations };
function keyOf(sessionId, requestId) {
    return `${sessionId}\0${typeof requestId}:${requestId}`;
}
//# sourceMappingURL=call-cancellations.js.map