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
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable, Optional } from '@nestjs/common';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { CompletionHandler } from '../handlers/completion.handler.js';
import { LifecycleHandler } from '../handlers/lifecycle.handler.js';
import { PromptsHandler } from '../handlers/prompts.handler.js';
import { ResourcesHandler } from '../handlers/resources.handler.js';
import { ToolsHandler } from '../handlers/tools.handler.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { StreamMethodsHandler } from '../streams/stream-methods.handler.js';
import { MCP_CALL_HOOK } from './mcp-call.hook.js';
const BOTH = ['stateless', 'handshake'];
/** Routes one JSON-RPC request to its handler and shapes the result for the caller's era. */
let McpDispatcher = class McpDispatcher {
    options;
    registry;
    hook;
    routes;
    constructor(lifecycle, tools, resources, prompts, completion, options, registry, streamMethods, hook) {
        this.options = options;
        this.registry = registry;
        this.hook = hook;
        this.routes = {
            'server/discover': { eras: ['stateless'], perCaller: true, handle: () => lifecycle.discover() },
            initialize: { eras: ['handshake'], handle: (p, c) => lifecycle.initialize(p, c) },
            ping: { eras: ['handshake'], handle: () => lifecycle.ping() },
            'tools/list': { eras: BOTH, perCaller: true, handle: (p, c) => tools.list(p, c) },
            'tools/call': { eras: BOTH, call: 'tools/call', handle: (p, c) => tools.call(p, c) },
            'resources/list': { eras: BOTH, perCaller: true, handle: (p, c) => resources.list(p, c) },
            'resources/templates/list': { eras: BOTH, perCaller: true, handle: (p, c) => resources.listTemplates(p, c) },
            'resources/read': { eras: BOTH, perCaller: true, call: 'resources/read', handle: (p, c) => resources.read(p, c) },
            'prompts/list': { eras: BOTH, perCaller: true, handle: (p, c) => prompts.list(p, c) },
            'prompts/get': { eras: BOTH, call: 'prompts/get', handle: (p, c) => prompts.get(p, c) },
            // A capability call too: completions return the caller's data (customer emails, ids).
            'completion/complete': { eras: BOTH, call: 'completion/complete', handle: (p, c) => completion.complete(p, c) },
        };
        if (options.streams) {
            // Methods that change a session: handshake era, stream mode only (2026-07-28 has neither).
            this.routes['logging/setLevel'] = { eras: ['handshake'], handle: (p, c) => streamMethods.setLevel(p, c) };
            this.routes['resources/subscribe'] = { eras: ['handshake'], handle: (p, c) => streamMethods.subscribe(p, c, true) };
            this.routes['resources/unsubscribe'] = { eras: ['handshake'], handle: (p, c) => streamMethods.subscribe(p, c, false) };
        }
    }
    async dispatch(message, context) {
        const route = Object.hasOwn(this.routes, message.method) ? this.routes[message.method] : undefined;
        if (!route || !route.eras.includes(context.era)) {
            // The 2026 era answers an unknown method with HTTP 404; the handshake era inside a 200 (SPEC §2).
            throw new McpProtocolError(McpErrorCode.MethodNotFound, `Method not found: ${message.method}`, context.era === 'stateless' ? HttpStatus.NOT_FOUND : HttpStatus.OK);
        }
        const signal = context.signal;
        // Stream mode: a call whose client left is failed, even if its handler ignored the signal, so
        // that the application's hook rolls its writes back.
        const proceed = signal
            ? async () => {
                const result = await route.handle(message.params, context);
                if (signal.aborted)
                    throw signal.reason instanceof McpProtocolError ? signal.reason : abandoned();
                return result;
            }
            : async () => route.handle(message.params, context);
        const result = route.call && this.hook ? await this.hook.around(this.callOf(route.call, message, context), proceed) : await proceed();
        return context.era === 'stateless' ? this.statelessResult(result, route) : result;
    }
    callOf(method, message, context) {
        if (method === 'completion/complete')
            return completionCall(message.params, context);
        const { name, uri, arguments: args } = message.params;
        const target = method === 'resources/read' ? uri : name;
        const readOnly = method !== 'tools/call' || (typeof name === 'string' && !!this.registry.tool(name)?.annotations.readOnlyHint);
        return {
            context,
            method,
            readOnly,
            target: typeof target === 'string' ? target : undefined,
            arguments: args !== null && typeof args === 'object' && !Array.isArray(args) ? args : undefined,
        };
    }
    statelessResult(result, route) {
        const meta = result._meta ?? {};
        return {
            resultType: 'complete',
            ...result,
            ...(route.perCaller ? { ttlMs: 0, cacheScope: 'private' } : {}),
            _meta: { ...meta, [SERVER_INFO_META_KEY]: this.options.serverInfo },
        };
    }
};
McpDispatcher = __decorate([
    Injectable(),
    __param(5, Inject(MCP_OPTIONS)),
    __param(8, Optional()),
    __param(8, Inject(MCP_CALL_HOOK)),
    __metadata("design:paramtypes", [LifecycleHandler,
        ToolsHandler,
        ResourcesHandler,
        PromptsHandler,
        CompletionHandler, Object, McpRegistry,
        StreamMethodsHandler, Object])
], McpDispatcher);
export { McpDispatcher };
function abandoned() {
    return new McpProtocolError(McpErrorCode.InternalError, 'The client disconnected before the answer was complete: the call was rolled back', HttpStatus.OK);
}
/** `completion/complete`: target `<prompt name or template URI>#<argument>`; a read. */
function completionCall(params, context) {
    const { ref, argument } = params;
    const refName = isPlainObject(ref) ? (ref.type === 'ref/resource' ? ref.uri : ref.name) : undefined;
    const argumentName = isPlainObject(argument) ? argument.name : undefined;
    return {
        context,
        method: 'completion/complete',
        readOnly: true,
        target: typeof refName === 'string' ? `${refName}#${typeof argumentName === 'string' ? argumentName : ''}` : undefined,
        arguments: isPlainObject(argument)
            ? { argument, ...(isPlainObject(params.context) && params.context.arguments !== undefined ? { context: params.context.arguments } : {}) }
            : undefined,
    };
}
//# sourceMappingURL=mcp.dispatcher.js.map