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
import { Inject, Injectable, Optional } from '@nestjs/common';
import { from, mergeMap, of } from 'rxjs';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpExecutionContext } from '../mcp-execution-context.js';
import { ToolReply } from '../server/tool-reply.js';
import { ClaimedCalls } from './claimed-calls.js';
import { MCP_IDEMPOTENCY_STORE } from './idempotency.store.js';
/**
 * Idempotency keys of tool calls, claimed as an interceptor so that it runs after every guard
 * (authentication, workspace, scopes, rate limit): a caller the tool would refuse gets that
 * refusal, never a stored answer nor a hint that the key exists, and a replay runs in the
 * workspace the guards resolved (its audit row carries it). Placed before the confirmation
 * interceptor, so it is the outer one: a call that ends pending confirmation or asking a question
 * frees its key, a confirmed call that completed is the answer a repeat replays.
 *
 * The claim happens here; the tools handler, which renders the final answer, saves it or frees the
 * key (`ClaimedCalls`). Calls without a key, read-only tools and REST requests pass straight through.
 */
let McpIdempotencyInterceptor = class McpIdempotencyInterceptor {
    registry;
    options;
    store;
    constructor(registry, options, store) {
        this.registry = registry;
        this.options = options;
        this.store = store;
    }
    /** Whether a tool with these annotations can carry a key at all (decided once, at bootstrap). */
    appliesTo(annotations) {
        return !!this.store && !annotations.readOnlyHint;
    }
    intercept(context, next) {
        const invocation = McpExecutionContext.invocation(context);
        const call = invocation && this.idempotentCall(invocation);
        if (!call)
            return next.handle();
        return from(this.store.claim(call)).pipe(mergeMap((claim) => {
            if (claim.kind === 'replay')
                return of(claim.result);
            if (claim.kind === 'mismatch')
                return of(this.reused(call.tool));
            ClaimedCalls.remember(call.invocation, call);
            return next.handle();
        }));
    }
    /** The call's idempotency key, when the tool has side effects and the key argument was given. */
    idempotentCall(invocation) {
        if (!this.store || invocation.kind !== 'tool')
            return undefined;
        const key = invocation.arguments?.[this.options.idempotencyKeyArgument];
        if (typeof key !== 'string' || !key)
            return undefined;
        if (this.registry.tool(invocation.name)?.annotations.readOnlyHint)
            return undefined;
        return { tool: invocation.name, key, argumentsHash: invocation.argumentsHash, invocation };
    }
    reused(tool) {
        const argument = this.options.idempotencyKeyArgument;
        return ToolReply.failed([
            {
                code: 'idempotency_key_reused',
                field: argument,
                message: `This ${argument} was already used for a ${tool} call with different arguments. ` +
                    'Use a new key for a new operation, or repeat the first call exactly to get its answer.',
                retryable: false,
            },
        ]);
    }
};
McpIdempotencyInterceptor = __decorate([
    Injectable(),
    __param(1, Inject(MCP_OPTIONS)),
    __param(2, Optional()),
    __param(2, Inject(MCP_IDEMPOTENCY_STORE)),
    __metadata("design:paramtypes", [McpRegistry, Object, Object])
], McpIdempotencyInterceptor);
export { McpIdempotencyInterceptor };
//# sourceMappingURL=idempotency.interceptor.js.map