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
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { ClaimedCalls } from '../idempotency/claimed-calls.js';
import { MCP_IDEMPOTENCY_STORE } from '../idempotency/idempotency.store.js';
import { asInputRequired, assertAnswerable } from '../multi-round/input-required.js';
import { InvocationBuilder } from '../multi-round/multi-round-call.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { validateArguments } from '../schema/dto-argument.validator.js';
import { paginate } from '../server/list-pagination.js';
import { RawJson } from '../server/raw-json.js';
import { ToolReply } from '../server/tool-reply.js';
import { CapabilityAccess } from './capability-access.js';
import { nextQuestionOf, toolErrorsFromException } from './tool-error.mapper.js';
/** `tools/list` and `tools/call` (SPEC §3). */
let ToolsHandler = class ToolsHandler {
    registry;
    access;
    invocations;
    options;
    idempotency;
    constructor(registry, access, invocations, options, idempotency) {
        this.registry = registry;
        this.access = access;
        this.invocations = invocations;
        this.options = options;
        this.idempotency = idempotency;
    }
    /** `tools` is the page's definitions as serialized at bootstrap: no per-request serialization of schemas. */
    list(params, context) {
        const visible = this.access.visible('tool', this.registry.tools, context);
        const { page, nextCursor } = paginate(visible, params.cursor, this.options.pageSize);
        return { tools: RawJson.array(page.map((entry) => entry.encodedDefinition)), ...(nextCursor ? { nextCursor } : {}) };
    }
    async call(params, context) {
        const name = params.name;
        if (typeof name !== 'string')
            throw McpProtocolError.invalidParams('Invalid params: "name" (the tool to call) is required');
        const entry = this.registry.tool(name);
        if (!entry)
            throw McpProtocolError.invalidParams(`Unknown tool: ${name}. Call tools/list to see the tools you can use.`);
        this.access.assert('tool', entry, context);
        const started = performance.now();
        const finish = (partial) => this.result(entry, { ...partial, toolName: name, safety: safetyOf(entry), durationMs: Math.round(performance.now() - started) });
        let input = undefined;
        const validation = entry.input
            ? await validateArguments(entry.input, params.arguments ?? {}, { forbidUnknown: this.options.forbidUnknownArguments })
            : this.checkNoArguments(params.arguments);
        if (validation) {
            if (!validation.ok) {
                const errors = validation.violations.map((v) => ({
                    code: 'invalid_argument',
                    field: v.field || undefined,
                    message: `${v.message}. Correct ${v.field ? 'this argument' : 'the arguments'} and call ${name} again.`,
                    retryable: false,
                }));
                return finish({ ok: false, status: 'failed', errors });
            }
            input = validation.value;
        }
        const invocation = await this.invocations.build('tool', name, params, context, input);
        const { result, final } = await this.run(entry, invocation, finish);
        // The key was claimed after the guards (McpIdempotencyInterceptor). Only a final, successful
        // answer is kept: a failure, a question or a pending approval leaves the key free.
        const claimed = ClaimedCalls.take(invocation);
        if (claimed && final)
            await this.idempotency.save(claimed, result);
        else if (claimed)
            await this.idempotency.release(claimed);
        return result;
    }
    async run(entry, invocation, finish) {
        let output;
        try {
            output = await entry.handler(invocation);
        }
        catch (exception) {
            // A question the handler put through invocation.elicit/sample/listRoots (2026 era): ask it.
            const asked = await this.invocations.asked(exception, invocation);
            if (asked)
                return { result: assertAnswerable(asked, invocation), final: false };
            const errors = toolErrorsFromException(exception);
            if (!errors)
                throw exception;
            // A handler shared with REST cannot return a ToolReply; an exception carrying `nextQuestion` says the same.
            const nextQuestion = nextQuestionOf(exception);
            const status = nextQuestion ? 'needs_more_info' : 'failed';
            return { result: finish({ ok: false, status, errors, ...(nextQuestion ? { nextQuestion } : {}) }), final: false };
        }
        const inputRequired = asInputRequired(output);
        if (inputRequired)
            return { result: assertAnswerable(inputRequired, invocation), final: false };
        if (isCallToolResult(output))
            return { result: output, final: !output.isError };
        if (output instanceof ToolReply) {
            const { ok, status, data, errors, nextQuestion, approval } = output;
            const reply = finish({ ok, status, data, errors, ...(nextQuestion ? { nextQuestion } : {}), ...(approval ? { approval } : {}) });
            return { result: reply, final: ok };
        }
        return { result: finish({ ok: true, status: 'success', data: output, errors: [] }), final: true };
    }
    /** A tool without an input DTO publishes an empty closed schema: hold it to that. */
    checkNoArguments(args) {
        if (args === undefined || args === null)
            return undefined;
        if (typeof args !== 'object' || Array.isArray(args)) {
            return { ok: false, violations: [{ field: '', message: 'arguments must be a JSON object' }] };
        }
        const extra = Object.keys(args);
        if (!extra.length || !this.options.forbidUnknownArguments)
            return undefined;
        return { ok: false, violations: extra.map((field) => ({ field, message: `\`${field}\` is not an accepted argument; this tool takes none` })) };
    }
    result(entry, envelope) {
        if (envelope.data === undefined)
            delete envelope.data;
        return {
            content: [{ type: 'text', text: JSON.stringify(envelope) }],
            ...(entry.structured ? { structuredContent: envelope } : {}),
            // pending_confirmation is not an error: the request stands, its approval is on record.
            ...(envelope.ok || envelope.status === 'pending_confirmation' ? {} : { isError: true }),
        };
    }
};
ToolsHandler = __decorate([
    Injectable(),
    __param(3, Inject(MCP_OPTIONS)),
    __param(4, Optional()),
    __param(4, Inject(MCP_IDEMPOTENCY_STORE)),
    __metadata("design:paramtypes", [McpRegistry,
        CapabilityAccess,
        InvocationBuilder, Object, Object])
], ToolsHandler);
export { ToolsHandler };
function safetyOf(entry) {
    const a = entry.annotations;
    if (a.destructiveHint)
        return 'destructive';
    if (a.readOnlyHint)
        return 'read_only';
    return a.openWorldHint ? 'external_send' : 'mutation';
}
/** A handler may answer a full `CallToolResult` (content blocks) instead of data for the envelope. */
function isCallToolResult(value) {
    return typeof value === 'object' && value !== null && Array.isArray(value.content);
}
//# sourceMappingURL=tools.handler.js.map