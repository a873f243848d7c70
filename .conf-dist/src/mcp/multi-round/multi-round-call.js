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
import { Injectable, Inject } from '@nestjs/common';
import { argumentsHash } from '../calls/arguments-hash.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { ClientQuestions, InputRequiredSignal, inputRequiredFor } from './client-questions.js';
import { McpRequestState } from './request-state.js';
/**
 * Builds the invocation a capability handler receives, with what multi round-trip requests
 * need: the raw arguments and their hash, the caller's identity, the client's `inputResponses`,
 * and the verified payload of an echoed `requestState` (SEP-2322). Shared by tools, prompts and
 * resources, the three methods that may answer `input_required`.
 */
let InvocationBuilder = class InvocationBuilder {
    states;
    options;
    constructor(states, options) {
        this.states = states;
        this.options = options;
    }
    async build(kind, name, params, context, input) {
        const args = isPlainObject(params.arguments) ? params.arguments : undefined;
        const invocation = new BuiltInvocation(context, kind, name, input, args, this.options.callerKey);
        if (context.era !== 'stateless')
            return invocation;
        if (params.inputResponses !== undefined) {
            if (!isPlainObject(params.inputResponses)) {
                throw McpProtocolError.invalidParams('Invalid params: "inputResponses" must be an object keyed by the inputRequests keys');
            }
            invocation.inputResponses = params.inputResponses;
        }
        if (params.requestState !== undefined)
            invocation.state = await this.states.open(params.requestState, invocation);
        return invocation;
    }
    /**
     * The `input_required` result when a handler failed with the question it asked through
     * `invocation.elicit/sample/listRoots` (2026-07-28); undefined for any other exception.
     */
    async asked(exception, invocation) {
        if (!(exception instanceof InputRequiredSignal))
            return undefined;
        return inputRequiredFor(exception, invocation, this.states);
    }
};
InvocationBuilder = __decorate([
    Injectable(),
    __param(1, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [McpRequestState, Object])
], InvocationBuilder);
export { InvocationBuilder };
/**
 * An invocation as built here. A class, not an object literal: V8 builds `{ ...context, … }` with
 * a getter through its slow path (microseconds per call, a visible share of a small tool call).
 */
class BuiltInvocation {
    kind;
    name;
    input;
    callerKeyOf;
    #argumentsHash;
    #callerKey;
    #questions;
    constructor(context, kind, name, input, args, callerKeyOf) {
        this.kind = kind;
        this.name = name;
        this.input = input;
        this.callerKeyOf = callerKeyOf;
        Object.assign(this, context);
        if (args)
            this.arguments = args;
    }
    /**
     * Hashed on first use only (idempotency keys, requestState, approvals), all before the handler
     * runs: most calls never need it, and canonical JSON + SHA-256 is a share of a small call.
     */
    get argumentsHash() {
        return (this.#argumentsHash ??= argumentsHash(this.arguments ?? {}));
    }
    /** Worked out on first use only (requestState, approvals, idempotency), as `argumentsHash`. */
    get callerKey() {
        return (this.#callerKey ??= { value: this.callerKeyOf(this.httpRequest) }).value;
    }
    async progress(done, total, message) {
        await this.stream?.progress(done, total, message);
    }
    async log(level, data, logger) {
        await this.stream?.log(level, data, logger);
    }
    elicit(params) {
        return this.ask('elicitation/create', params);
    }
    sample(params) {
        return this.ask('sampling/createMessage', params);
    }
    listRoots() {
        return this.ask('roots/list', {});
    }
    ask(method, params) {
        return (this.#questions ??= new ClientQuestions(this)).ask(method, params);
    }
}
//# sourceMappingURL=multi-round-call.js.map