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
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { asInputRequired, assertAnswerable } from '../multi-round/input-required.js';
import { InvocationBuilder } from '../multi-round/multi-round-call.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { validateArguments } from '../schema/dto-argument.validator.js';
import { paginate } from '../server/list-pagination.js';
import { CapabilityAccess } from './capability-access.js';
/** `prompts/list` and `prompts/get` (SPEC §5). */
let PromptsHandler = class PromptsHandler {
    registry;
    access;
    invocations;
    options;
    constructor(registry, access, invocations, options) {
        this.registry = registry;
        this.access = access;
        this.invocations = invocations;
        this.options = options;
    }
    list(params, context) {
        const visible = this.access.visible('prompt', this.registry.prompts, context);
        const { page, nextCursor } = paginate(visible, params.cursor, this.options.pageSize);
        return { prompts: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
    }
    async get(params, context) {
        const name = params.name;
        if (typeof name !== 'string')
            throw McpProtocolError.invalidParams('Invalid params: "name" (the prompt to get) is required');
        const entry = this.registry.prompt(name);
        if (!entry)
            throw McpProtocolError.invalidParams(`Unknown prompt: ${name}. Call prompts/list to see the prompts you can use.`);
        this.access.assert('prompt', entry, context);
        let input = {};
        if (entry.args) {
            // Prompt arguments are not tool calls: a bad one is invalid params, there is no isError result.
            const validation = await validateArguments(entry.args, params.arguments ?? {}, {
                forbidUnknown: this.options.forbidUnknownArguments,
            });
            if (!validation.ok) {
                throw McpProtocolError.invalidParams(`Invalid arguments for prompt ${name}: ${validation.violations.map((v) => v.message).join('; ')}`, { violations: validation.violations });
            }
            input = validation.value;
        }
        const invocation = await this.invocations.build('prompt', name, params, context, input);
        let output;
        try {
            output = await entry.handler(invocation);
        }
        catch (exception) {
            const asked = await this.invocations.asked(exception, invocation);
            if (!asked)
                throw exception;
            output = asked;
        }
        const inputRequired = asInputRequired(output);
        if (inputRequired)
            return assertAnswerable(inputRequired, invocation);
        return toPromptResult(output, entry.definition.description);
    }
};
PromptsHandler = __decorate([
    Injectable(),
    __param(3, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [McpRegistry,
        CapabilityAccess,
        InvocationBuilder, Object])
], PromptsHandler);
export { PromptsHandler };
/** A prompt method may return a full result, a list of messages, or one string (a user message). */
function toPromptResult(output, description) {
    if (typeof output === 'string') {
        return { ...(description ? { description } : {}), messages: [{ role: 'user', content: { type: 'text', text: output } }] };
    }
    if (Array.isArray(output))
        return { ...(description ? { description } : {}), messages: output };
    return output;
}
//# sourceMappingURL=prompts.handler.js.map