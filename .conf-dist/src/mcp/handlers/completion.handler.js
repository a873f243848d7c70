var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { completionKey, McpRegistry } from '../discovery/mcp.registry.js';
import { InvocationBuilder } from '../multi-round/multi-round-call.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { CapabilityAccess } from './capability-access.js';
const MAX_VALUES = 100;
/** `completion/complete` for prompt arguments and URI-template variables (SPEC §5). */
let CompletionHandler = class CompletionHandler {
    registry;
    access;
    invocations;
    constructor(registry, access, invocations) {
        this.registry = registry;
        this.access = access;
        this.invocations = invocations;
    }
    async complete(params, context) {
        const { ref, argument } = params;
        if (!isPlainObject(ref) || !isPlainObject(argument) || typeof argument.name !== 'string') {
            throw McpProtocolError.invalidParams('Invalid params: "ref" and "argument.name" are required');
        }
        const value = typeof argument.value === 'string' ? argument.value : '';
        const target = this.resolveTarget(ref, context);
        const entry = this.registry.completion(completionKey(target, argument.name));
        if (!entry)
            return { completion: { values: [], total: 0, hasMore: false } };
        const contextArguments = isPlainObject(params.context) && isPlainObject(params.context.arguments)
            ? params.context.arguments
            : {};
        const input = { argument: argument.name, value, arguments: contextArguments };
        const output = await entry.handler(await this.invocations.build('completion', target.name, {}, context, input));
        const candidates = Array.isArray(output) ? output.map(String) : [];
        const prefix = value.toLowerCase();
        const matching = [...new Set(candidates)].filter((c) => c.toLowerCase().startsWith(prefix));
        return {
            completion: { values: matching.slice(0, MAX_VALUES), total: matching.length, hasMore: matching.length > MAX_VALUES },
        };
    }
    /** The prompt or template a completion refers to; it must exist and be visible to the caller. */
    resolveTarget(ref, context) {
        if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
            const prompt = this.registry.prompt(ref.name);
            if (!prompt)
                throw McpProtocolError.invalidParams(`Unknown prompt: ${ref.name}`);
            this.access.assert('prompt', prompt, context);
            return { type: 'prompt', name: ref.name };
        }
        if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
            const template = this.registry.templateByUri(ref.uri);
            if (!template)
                throw McpProtocolError.invalidParams(`Unknown resource template: ${ref.uri}`);
            this.access.assert('resource', template, context);
            return { type: 'template', name: ref.uri };
        }
        throw McpProtocolError.invalidParams('Invalid params: "ref" must be {type:"ref/prompt",name} or {type:"ref/resource",uri}');
    }
};
CompletionHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpRegistry,
        CapabilityAccess,
        InvocationBuilder])
], CompletionHandler);
export { CompletionHandler };
//# sourceMappingURL=completion.handler.js.map