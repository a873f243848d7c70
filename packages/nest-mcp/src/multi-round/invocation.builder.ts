import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InputRequiredResult,
  ListRootsResult,
  LoggingLevel,
} from '@modelcontextprotocol/server';
import { Injectable, Inject } from '@nestjs/common';
import { argumentsHash } from '../calls/arguments-hash.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { InChatConfirmation, McpInvocation, McpRequestContext, McpTargetKind } from '../invocation/mcp-invocation.js';
import type { ResourceTemplateEntry, ToolEntry } from '../invocation/capability-entries.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import type { McpCallStream } from '../invocation/call-stream.interface.js';
import type { McpSession } from '../invocation/mcp-session.js';
import { ClientQuestions, InputRequiredSignal, inputRequiredFor } from './client-questions.js';
import { McpRequestState } from './request-state.js';

/** What an invocation is of: fixed when it is built, never set on it afterwards. */
export interface InvocationTarget {
  kind: McpTargetKind;
  name: string;
  /** `tools/call`: the tool, as the call resolved it (`McpCall.tool`). */
  tool?: ToolEntry;
  /** `resources/read`: the URI read, and the template it matched when it did. */
  uri?: string;
  template?: ResourceTemplateEntry;
  /** When the layer began serving the call (`McpCall.startedAt`); now when not given. */
  startedAt?: number;
  /** Stream mode: the in-chat confirmation asked before the call hook (`StreamConfirmation`). */
  confirmedInChat?: InChatConfirmation;
}

/**
 * Builds the invocation a capability handler receives, with what multi round-trip requests
 * need: the raw arguments and their hash, the caller's identity, the client's `inputResponses`,
 * and the verified payload of an echoed `requestState` (SEP-2322). Shared by tools, prompts and
 * resources, the three methods that may answer `input_required`.
 */
@Injectable()
export class InvocationBuilder {
  constructor(
    private readonly states: McpRequestState,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  async build(
    target: InvocationTarget,
    params: Record<string, unknown>,
    context: McpRequestContext,
    input: unknown,
  ): Promise<McpInvocation> {
    const args = isPlainObject(params.arguments) ? params.arguments : undefined;
    const invocation: McpInvocation = new BuiltInvocation(context, target, input, args, this.options.callerKey);
    if (context.era !== 'stateless') return invocation;
    if (params.inputResponses !== undefined) {
      if (!isPlainObject(params.inputResponses)) {
        throw McpProtocolError.invalidParams('Invalid params: "inputResponses" must be an object keyed by the inputRequests keys');
      }
      invocation.inputResponses = params.inputResponses;
    }
    if (params.requestState !== undefined) invocation.state = await this.states.open(params.requestState, invocation);
    return invocation;
  }

  /**
   * The `input_required` result when a handler failed with the question it asked through
   * `invocation.elicit/sample/listRoots` (2026-07-28); undefined for any other exception.
   */
  async asked(exception: unknown, invocation: McpInvocation): Promise<InputRequiredResult | undefined> {
    if (!(exception instanceof InputRequiredSignal)) return undefined;
    return inputRequiredFor(exception, invocation, this.states);
  }
}

/**
 * An invocation as built here. A class, not an object literal: V8 builds `{ ...context, … }` with
 * a getter through its slow path (microseconds per call, a visible share of a small tool call).
 */
class BuiltInvocation implements McpInvocation {
  declare era: McpRequestContext['era'];
  declare protocolVersion: string;
  declare method: string;
  declare clientCapabilities: McpRequestContext['clientCapabilities'];
  declare meta: Record<string, unknown>;
  declare httpRequest: McpRequestContext['httpRequest'];
  declare arguments?: Record<string, unknown>;
  declare inputResponses?: Record<string, unknown>;
  declare state?: unknown;
  declare session?: McpSession;
  declare signal?: AbortSignal;
  declare taskRun?: McpRequestContext['taskRun'];
  declare stream?: McpCallStream;
  readonly kind: McpTargetKind;
  readonly name: string;
  declare tool?: ToolEntry;
  declare uri?: string;
  declare template?: ResourceTemplateEntry;
  readonly startedAt: number;
  declare confirmedInChat?: InChatConfirmation;
  #argumentsHash?: string;
  #callerKey?: { value: string | undefined };
  #questions?: ClientQuestions;

  constructor(
    context: McpRequestContext,
    target: InvocationTarget,
    readonly input: unknown,
    args: Record<string, unknown> | undefined,
    private readonly callerKeyOf: (request: McpRequestContext['httpRequest']) => string | undefined,
  ) {
    Object.assign(this, context);
    this.kind = target.kind;
    this.name = target.name;
    this.startedAt = target.startedAt ?? performance.now();
    if (target.tool) this.tool = target.tool;
    if (target.uri !== undefined) this.uri = target.uri;
    if (target.template) this.template = target.template;
    if (target.confirmedInChat) this.confirmedInChat = target.confirmedInChat;
    if (args) this.arguments = args;
  }

  /**
   * Hashed on first use only (idempotency keys, requestState, approvals), all before the handler
   * runs: most calls never need it, and canonical JSON + SHA-256 is a share of a small call.
   */
  get argumentsHash(): string {
    return (this.#argumentsHash ??= argumentsHash(this.arguments ?? {}));
  }

  /** Worked out on first use only (requestState, approvals, idempotency), as `argumentsHash`. */
  get callerKey(): string | undefined {
    return (this.#callerKey ??= { value: this.callerKeyOf(this.httpRequest) }).value;
  }

  async progress(done: number, total?: number, message?: string): Promise<void> {
    if (this.taskRun) return this.taskRun.progress(done, total, message);
    await this.stream?.progress(done, total, message);
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    await this.stream?.log(level, data, logger);
  }

  elicit(params: ElicitRequestParams): Promise<ElicitResult> {
    return this.ask('elicitation/create', params) as Promise<ElicitResult>;
  }

  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    return this.ask('sampling/createMessage', params) as Promise<CreateMessageResult>;
  }

  listRoots(): Promise<ListRootsResult> {
    return this.ask('roots/list', {}) as Promise<ListRootsResult>;
  }

  private ask(method: string, params: object): Promise<Record<string, unknown>> {
    return (this.#questions ??= new ClientQuestions(this)).ask(method, params as Record<string, unknown>);
  }
}
