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
import { canElicitForm, inputRequired, inputResponse } from '../multi-round/input-required.js';
import { McpRequestState } from '../multi-round/request-state.js';
import { ToolReply } from '../server/tool-reply.js';
import { MCP_APPROVAL_GATEWAY } from './approval.gateway.js';
/** The key of the confirmation in `inputRequests` / `inputResponses`. */
export const CONFIRM_INPUT = 'confirm';
/**
 * Nothing destructive runs without a person's yes (SPEC §4). Applied by the layer to every tool
 * annotated `destructiveHint: true`, so the tool itself has no confirmation code:
 * - a 2026-era client that declared form elicitation is asked in the chat (`input_required`, with
 *   a sealed `requestState` bound to this exact call); a decline means the tool does not run;
 *   unless the tool (`confirmation: 'link'`) or the server (`destructiveConfirmation: 'link'`)
 *   requires the approval page;
 * - any other client gets an approval link from the application's gateway (`pending_confirmation`),
 *   or a refusal when the server is configured to refuse or has no gateway.
 * Over REST (not an MCP invocation) it does nothing: REST routes have their own authorization.
 */
let McpConfirmationInterceptor = class McpConfirmationInterceptor {
    registry;
    states;
    options;
    approvals;
    constructor(registry, states, options, approvals) {
        this.registry = registry;
        this.states = states;
        this.options = options;
        this.approvals = approvals;
    }
    /** Whether a tool with these annotations is confirmed at all (decided once, at bootstrap). */
    appliesTo(annotations) {
        return !!annotations.destructiveHint;
    }
    intercept(context, next) {
        const invocation = McpExecutionContext.invocation(context);
        if (!invocation || invocation.kind !== 'tool' || invocation.approved)
            return next.handle();
        const tool = this.registry.tool(invocation.name);
        if (!tool?.annotations.destructiveHint)
            return next.handle();
        return from(this.decide(tool, invocation)).pipe(mergeMap((answer) => (answer === PROCEED ? next.handle() : of(answer))));
    }
    async decide(tool, invocation) {
        const linkOnly = confirmationOf(tool, this.options) === 'link';
        if (!linkOnly && invocation.era === 'stateless' && canElicitForm(invocation.clientCapabilities))
            return this.inChat(tool, invocation);
        // Stream mode, handshake era: a client that declared elicitation is asked over the call's stream.
        if (!linkOnly && invocation.stream?.canAsk && canElicitForm(invocation.clientCapabilities))
            return this.inChatOverStream(tool, invocation);
        if (this.options.destructiveTools === 'refuse' || !this.approvals)
            return refusal(tool.name, linkOnly);
        return replyFor(await this.approvals.request({ tool: { name: tool.name, ...pick(tool) }, invocation }), tool.name);
    }
    /** Handshake-era confirmation over the stream: the call waits for the answer (or fails after the timeout, having done nothing). */
    async inChatOverStream(tool, invocation) {
        const answer = await invocation.elicit(confirmationQuestion(tool, invocation));
        if (answer.action === 'accept' && answer.content?.confirm === true)
            return PROCEED;
        return declined(tool.name);
    }
    /** Multi round-trip confirmation: ask, then run only on an accepted yes for this exact call. */
    async inChat(tool, invocation) {
        const asked = invocation.state?.confirm === tool.name;
        if (asked) {
            const answer = inputResponse(invocation.inputResponses, CONFIRM_INPUT);
            const yes = answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true;
            // A yes is spent with the call (a confirmed call that fails and rolls back may be retried with
            // the same state). Any other answer is final: a decline answers an error, which rolls the call
            // back, and its state must not come back to life for a replay that says yes.
            await this.states.recordUse(invocation, { final: !yes });
            if (yes)
                return PROCEED;
            if (answer.kind === 'elicit')
                return declined(tool.name);
            // No usable answer for the question we asked: ask again (SEP-2322 re-request).
        }
        return inputRequired({
            inputRequests: { [CONFIRM_INPUT]: inputRequired.elicit(confirmationQuestion(tool, invocation)) },
            requestState: await this.states.seal({ confirm: tool.name }, invocation, { recordUse: 'by-handler' }),
        });
    }
};
McpConfirmationInterceptor = __decorate([
    Injectable(),
    __param(2, Inject(MCP_OPTIONS)),
    __param(3, Optional()),
    __param(3, Inject(MCP_APPROVAL_GATEWAY)),
    __metadata("design:paramtypes", [McpRegistry,
        McpRequestState, Object, Object])
], McpConfirmationInterceptor);
export { McpConfirmationInterceptor };
const PROCEED = Symbol('proceed');
/** The question put to the user, the same in both eras. */
function confirmationQuestion(tool, invocation) {
    const title = tool.definition.title ?? tool.name;
    return {
        message: `Confirm "${title}"? ${tool.definition.description ?? ''}\nArguments: ${JSON.stringify(invocation.arguments ?? {})}`.trim(),
        requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Yes, do it', description: 'This cannot be undone.' } },
            required: ['confirm'],
        },
    };
}
function declined(name) {
    return ToolReply.failed([
        { code: 'confirmation_declined', message: `The user did not confirm ${name}, so nothing was done. Do not retry unless the user asks again.`, retryable: false },
    ]);
}
function pick(tool) {
    return {
        ...(tool.definition.title ? { title: tool.definition.title } : {}),
        ...(tool.definition.description ? { description: tool.definition.description } : {}),
    };
}
/**
 * The stricter of the tool's own confirmation and the server's minimum: an operator can require
 * the approval page for every destructive tool, a tool cannot lower that.
 */
export function confirmationOf(tool, options) {
    return tool.confirmation === 'link' || options.destructiveConfirmation === 'link' ? 'link' : 'elicitation-or-link';
}
function refusal(name, linkOnly) {
    const why = linkOnly
        ? 'on the approval page, which this server does not offer over MCP'
        : 'which this client cannot give in the chat (it did not declare elicitation)';
    return ToolReply.failed([
        {
            code: 'confirmation_required',
            message: `${name} is destructive and needs a person's confirmation ${why}. Nothing was done. Ask the user to do it in the application.`,
            retryable: false,
        },
    ]);
}
/** What the agent gets for each state of an approval. */
function replyFor(outcome, name) {
    switch (outcome.status) {
        case 'completed':
            return outcome.result;
        case 'pending':
            return ToolReply.pendingConfirmation({ id: outcome.approvalId, url: outcome.url, expires_at: outcome.expiresAt.toISOString() }, `Nothing has been done yet. Ask the user to open ${outcome.url} and choose Continue (the link expires at ` +
                `${outcome.expiresAt.toISOString()}), then call ${name} again with the same arguments to get the result.`);
        case 'denied':
            return ToolReply.failed([
                { code: 'approval_denied', message: `A person chose Cancel on the approval page: ${name} did not run. Do not retry.`, retryable: false },
            ], { id: outcome.approvalId });
        case 'expired':
            return ToolReply.failed([
                {
                    code: 'approval_expired',
                    message: `Nobody approved ${name} in time, so it did not run. Call it again to get a new approval link if the user still wants it.`,
                    retryable: true,
                },
            ], { id: outcome.approvalId });
    }
}
//# sourceMappingURL=confirmation.interceptor.js.map