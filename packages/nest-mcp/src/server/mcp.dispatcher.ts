import { isInputRequiredResult, SERVER_INFO_META_KEY, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { StreamConfirmation } from '../confirmation/stream-confirmation.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { CompletionHandler } from '../handlers/completion.handler.js';
import { LifecycleHandler } from '../handlers/lifecycle.handler.js';
import { PromptsHandler } from '../handlers/prompts.handler.js';
import { ResourcesHandler } from '../handlers/resources.handler.js';
import { ToolsHandler } from '../handlers/tools.handler.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import { STATELESS_VERSIONS } from '../protocol/protocol.constants.js';
import type { InChatConfirmation, McpRequestContext, McpTaskRunContext } from '../invocation/mcp-invocation.js';
import type { ToolEntry } from '../invocation/capability-entries.js';
import type { McpTask } from '../contracts/task-store.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { isPlainObject, type InboundMessage } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { StreamMethodsHandler } from '../streams/stream-methods.handler.js';
import { TasksHandler } from '../tasks/tasks.handler.js';
import { SkillsHandler } from '../skills/skills.handler.js';
import { taskRunContext } from '../tasks/task-call.js';
import type { ProtocolEra } from '../protocol/protocol-version.js';
import type { McpApprovedCall } from '../confirmation/mcp-approved-call.js';
import { MCP_CALL_HOOK, type McpCall, type McpCallHook, type McpCallOutcome } from '../contracts/call-hook.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** How the dispatcher serves a method. Data only: `serve` and `answer` below do the work. */
interface MethodRule {
  eras: readonly ProtocolEra[];
  /** Results filtered per caller: the 2026 era marks them `ttlMs: 0`, `cacheScope: "private"`. */
  perCaller?: boolean;
  /** A capability call: runs inside the application's `McpCallHook` (transaction, audit), which learns its outcome. */
  call?: McpCall['method'];
}

/** A capability call's result and what it is (`McpCall.outcome`), from the handler that wrote the result. */
interface Answered {
  result: Result;
  outcome: McpCallOutcome;
}

const BOTH: readonly ProtocolEra[] = ['stateless', 'handshake'];

const METHODS: Readonly<Record<string, MethodRule>> = {
  'server/discover': { eras: ['stateless'], perCaller: true },
  initialize: { eras: ['handshake'] },
  ping: { eras: ['handshake'] },
  'tools/list': { eras: BOTH, perCaller: true },
  'tools/call': { eras: BOTH, call: 'tools/call' },
  'resources/list': { eras: BOTH, perCaller: true },
  'resources/templates/list': { eras: BOTH, perCaller: true },
  'resources/read': { eras: BOTH, perCaller: true, call: 'resources/read' },
  'prompts/list': { eras: BOTH, perCaller: true },
  'prompts/get': { eras: BOTH, call: 'prompts/get' },
  // A capability call too: completions return the caller's data (customer emails, ids).
  'completion/complete': { eras: BOTH, call: 'completion/complete' },
  // The tasks extension (docs/tasks.md): in every era its gate is the extension declared on the request.
  'tasks/get': { eras: BOTH },
  'tasks/update': { eras: BOTH },
  'tasks/cancel': { eras: BOTH },
  // The skills extension (docs/skills.md): per caller, as a skill is shown only to who may use all its tools.
  'skills/list': { eras: BOTH, perCaller: true },
  'skills/get': { eras: BOTH, perCaller: true },
  'resources/directory/read': { eras: BOTH, perCaller: true },
};

/** Methods that change a session: handshake era, stream mode only (2026-07-28 has neither). */
const STREAM_METHODS: Readonly<Record<string, MethodRule>> = {
  'logging/setLevel': { eras: ['handshake'] },
  'resources/subscribe': { eras: ['handshake'] },
  'resources/unsubscribe': { eras: ['handshake'] },
};

/** What a task's run adds to its call: its signal, its progress, and its result recorded inside the call hook. */
type TaskRun = { signal: AbortSignal; progress: McpTaskRunContext['progress']; completed(result: CallToolResult): Promise<void> };

/** Routes one JSON-RPC request to its handler and shapes the result for the caller's era. */
@Injectable()
export class McpDispatcher {
  private readonly methods: Readonly<Record<string, MethodRule>>;

  constructor(
    private readonly lifecycle: LifecycleHandler,
    private readonly tools: ToolsHandler,
    private readonly resources: ResourcesHandler,
    private readonly prompts: PromptsHandler,
    private readonly completion: CompletionHandler,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly registry: McpRegistry,
    private readonly streamMethods: StreamMethodsHandler,
    @Inject(MCP_CALL_HOOK) private readonly hook: McpCallHook,
    private readonly streamConfirmation: StreamConfirmation,
    private readonly tasks: TasksHandler,
    private readonly skills: SkillsHandler,
  ) {
    this.methods = options.streams ? { ...METHODS, ...STREAM_METHODS } : METHODS;
  }

  /**
   * Serves one message. `tool`: for a `tools/call`, the tool the body reader resolved where it read
   * the message (`McpRequestMessage.tool`); the call is not looked up again.
   */
  async dispatch(message: InboundMessage, context: McpRequestContext, tool?: ToolEntry): Promise<Result> {
    const rule = Object.hasOwn(this.methods, message.method) ? this.methods[message.method] : undefined;
    if (!rule || !rule.eras.includes(context.era)) {
      throw McpProtocolError.methodNotFound(message.method, context.era);
    }
    const result = rule.call
      ? await this.runCall(this.callOf(rule.call, message, context, tool), message.params)
      : stillWanted(await this.serve(message.method, message.params, context), context);
    return context.era === 'stateless' ? this.statelessResult(result, rule) : result;
  }

  /**
   * Runs a tool call a person approved (an approval page's Continue), in-process, through the same
   * pipeline as an agent's call (validation, guards, policy, interceptors, call hook), as whoever
   * `actingRequest` authenticates, without asking for confirmation again. Answers the tool result
   * as the agent would get it, without any era's decorations, so it can be stored and replayed.
   */
  async runApprovedCall(approved: McpApprovedCall): Promise<CallToolResult> {
    const requestId = `approval:${approved.approvalId}`;
    const context: McpRequestContext = {
      // No client is on the line: the sessionless era fits a one-shot call, and with no declared
      // capabilities nothing can be asked of anyone.
      era: 'stateless',
      protocolVersion: this.options.supportedVersions.find((version) => STATELESS_VERSIONS.includes(version)) ?? STATELESS_VERSIONS[0],
      method: 'tools/call',
      requestId,
      clientCapabilities: {},
      ...(approved.clientInfo ? { clientInfo: approved.clientInfo } : {}),
      meta: {},
      httpRequest: approved.actingRequest,
      approved: { approvalId: approved.approvalId },
    };
    const message = { id: requestId, method: 'tools/call', params: { name: approved.tool, arguments: approved.arguments } };
    const result = await this.runCall(this.callOf('tools/call', message, context, this.registry.tool(approved.tool)), message.params);
    if (isInputRequiredResult(result)) {
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `${approved.tool} asked for more input, which an approved call cannot give: nothing was done. Run it again from the client.`,
          },
        ],
      };
    }
    return result as CallToolResult;
  }

  /**
   * Runs a task's tool call on a worker (`McpTaskWorker`), through the same pipeline as the call
   * that created it (validation, guards, policy, interceptors, call hook), as whoever `request`
   * acts for, with the client as it was then. The idempotency key and the confirmation were
   * settled when the task was accepted and are not checked again. `completed` is called inside the
   * call hook with a successful result, so that the task's outcome commits with the work.
   */
  async runTaskCall(task: McpTask, request: Request, run: TaskRun): Promise<CallToolResult | InputRequiredResult> {
    const context = taskRunContext(task, request, run);
    const message = {
      id: context.requestId!,
      method: 'tools/call',
      params: { name: task.tool, arguments: task.arguments, ...(task.inputResponses ? { inputResponses: task.inputResponses } : {}) },
    };
    const call = this.callOf('tools/call', message, context, this.registry.tool(task.tool));
    return (await this.runCall(call, message.params, run)) as CallToolResult | InputRequiredResult;
  }

  /** A method that is not a capability call: answered as it is. */
  private serve(method: string, params: Params, context: McpRequestContext): Result | Promise<Result> {
    switch (method) {
      case 'server/discover':
        return this.lifecycle.discover();
      case 'initialize':
        return this.lifecycle.initialize(params, context);
      case 'ping':
        return this.lifecycle.ping();
      case 'tools/list':
        return this.tools.list(params, context);
      case 'resources/list':
        return this.resources.list(params, context);
      case 'resources/templates/list':
        return this.resources.listTemplates(params, context);
      case 'prompts/list':
        return this.prompts.list(params, context);
      case 'tasks/get':
        return this.tasks.get(params, context);
      case 'tasks/update':
        return this.tasks.update(params, context);
      case 'tasks/cancel':
        return this.tasks.cancel(params, context);
      case 'skills/list':
        return this.skills.list(params, context);
      case 'skills/get':
        return this.skills.get(params, context);
      case 'resources/directory/read':
        return this.skills.directoryRead(params, context);
      case 'logging/setLevel':
        return this.streamMethods.setLevel(params, context);
      case 'resources/subscribe':
        return this.streamMethods.subscribe(params, context, true);
      case 'resources/unsubscribe':
        return this.streamMethods.subscribe(params, context, false);
      default:
        throw new Error(`No handler for ${method}`);
    }
  }

  /** A capability call, inside the application's call hook, which learns its outcome (`call.outcome`). */
  private async runCall(call: McpCall, params: Params, taskRun?: TaskRun): Promise<Result> {
    // Stream mode, handshake era: a destructive call is confirmed in the chat BEFORE the hook, so
    // that nothing the application opens around a call (a transaction) waits for a person.
    const confirmedInChat = call.method === 'tools/call' && call.context.stream ? await this.streamConfirmation.askFirst(call) : undefined;
    return this.hook.around(call, async () => {
      const { result, outcome } = await this.answer(call, params, confirmedInChat);
      if (taskRun && outcome.status !== 'input_required' && !outcome.isError && !taskRun.signal.aborted) {
        await taskRun.completed(result as CallToolResult);
      }
      stillWanted(result, call.context);
      call.outcome = outcome;
      return result;
    });
  }

  private async answer(call: McpCall, params: Params, confirmedInChat: InChatConfirmation | undefined): Promise<Answered> {
    const context = call.context;
    switch (call.method) {
      case 'tools/call':
        return this.tools.call(params, call, confirmedInChat);
      case 'resources/read':
        return answeredRead(await this.resources.read(params, context));
      case 'prompts/get':
        return answeredRead(await this.prompts.get(params, context));
      case 'completion/complete':
        return answeredRead(await this.completion.complete(params, context));
    }
  }

  private callOf(method: McpCall['method'], message: InboundMessage, context: McpRequestContext, tool?: ToolEntry): McpCall {
    const startedAt = performance.now();
    if (method === 'completion/complete') return completionCall(message.params, context, startedAt);
    const { name, uri, arguments: args } = message.params;
    const target = method === 'resources/read' ? uri : name;
    // A call that may create a task writes (the task and its job, which must commit together), even
    // for a read-only tool; its run (`taskRun`) is as read-only as the tool.
    const readOnly = method !== 'tools/call' || (!!tool?.annotations.readOnlyHint && (!tool.task || !!context.taskRun));
    return {
      context,
      method,
      readOnly,
      target: typeof target === 'string' ? target : undefined,
      ...(method === 'tools/call' && tool ? { tool } : {}),
      startedAt,
      arguments: isPlainObject(args) ? args : undefined,
    };
  }

  private statelessResult(result: Result, rule: MethodRule): Result {
    const meta = (result._meta as Result | undefined) ?? {};
    return {
      resultType: 'complete',
      ...result,
      ...(rule.perCaller ? { ttlMs: 0, cacheScope: 'private' } : {}),
      _meta: { ...meta, [SERVER_INFO_META_KEY]: this.options.serverInfo },
    };
  }
}

/**
 * Stream mode: a call whose client left is failed, even if its handler ignored the signal, so that
 * the application's hook rolls its writes back.
 */
function stillWanted(result: Result, context: McpRequestContext): Result {
  const signal = context.signal;
  if (signal?.aborted) throw signal.reason instanceof McpProtocolError ? signal.reason : abandoned();
  return result;
}

/** A read (a resource, a prompt, a completion) answered, or asking the client first (2026 era). */
function answeredRead(result: Result): Answered {
  return { result, outcome: { status: isInputRequiredResult(result) ? 'input_required' : 'success', isError: false } };
}

function abandoned(): McpProtocolError {
  return new McpProtocolError(
    McpErrorCode.InternalError,
    'The client disconnected before the answer was complete: the call was rolled back',
    HttpStatus.OK,
  );
}

/** `completion/complete`: target `<prompt name or template URI>#<argument>`; a read. */
function completionCall(params: Params, context: McpRequestContext, startedAt: number): McpCall {
  const { ref, argument } = params;
  const refName = isPlainObject(ref) ? (ref.type === 'ref/resource' ? ref.uri : ref.name) : undefined;
  const argumentName = isPlainObject(argument) ? argument.name : undefined;
  return {
    context,
    method: 'completion/complete',
    readOnly: true,
    startedAt,
    target: typeof refName === 'string' ? `${refName}#${typeof argumentName === 'string' ? argumentName : ''}` : undefined,
    arguments: isPlainObject(argument)
      ? {
          argument,
          ...(isPlainObject(params.context) && params.context.arguments !== undefined ? { context: params.context.arguments } : {}),
        }
      : undefined,
  };
}
