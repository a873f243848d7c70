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
import type { McpRequestContext, McpTaskRunContext } from '../invocation/mcp-invocation.js';
import type { McpTask } from '../contracts/task-store.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { isPlainObject, type InboundMessage } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { StreamMethodsHandler } from '../streams/stream-methods.handler.js';
import { TasksHandler } from '../tasks/tasks.handler.js';
import { taskRunContext } from '../tasks/task-call.js';
import type { ProtocolEra } from '../protocol/protocol-version.js';
import type { McpApprovedCall } from '../confirmation/mcp-approved-call.js';
import { MCP_CALL_HOOK, type McpCall, type McpCallHook, type McpCallOutcome } from '../contracts/call-hook.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

interface RouteBase {
  eras: readonly ProtocolEra[];
  /** Results filtered per caller: the 2026 era marks them `ttlMs: 0`, `cacheScope: "private"`. */
  perCaller?: boolean;
}

/** A method answered as it is: the lifecycle, lists, `tasks/*`, the stream methods. */
interface PlainRoute extends RouteBase {
  call?: undefined;
  handle(params: Params, context: McpRequestContext): Result | Promise<Result>;
}

/** A capability call: runs inside the application's `McpCallHook` (transaction, audit), which learns its outcome. */
interface CallRoute extends RouteBase {
  call: McpCall['method'];
  answer(params: Params, context: McpRequestContext): Promise<Answered>;
}

type MethodRoute = PlainRoute | CallRoute;

/** A capability call's result and what it is (`McpCall.outcome`), from the handler that wrote the result. */
interface Answered {
  result: Result;
  outcome: McpCallOutcome;
}

const BOTH: readonly ProtocolEra[] = ['stateless', 'handshake'];

/** Routes one JSON-RPC request to its handler and shapes the result for the caller's era. */
@Injectable()
export class McpDispatcher {
  private readonly routes: Record<string, MethodRoute>;
  /** `tools/call`, also run in-process for an approved call and a task's run. */
  private readonly toolCall: CallRoute;

  constructor(
    lifecycle: LifecycleHandler,
    tools: ToolsHandler,
    resources: ResourcesHandler,
    prompts: PromptsHandler,
    completion: CompletionHandler,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly registry: McpRegistry,
    streamMethods: StreamMethodsHandler,
    @Inject(MCP_CALL_HOOK) private readonly hook: McpCallHook,
    private readonly streamConfirmation: StreamConfirmation,
    tasks: TasksHandler,
  ) {
    this.toolCall = { eras: BOTH, call: 'tools/call', answer: (p, c) => tools.call(p, c) };
    this.routes = {
      'server/discover': { eras: ['stateless'], perCaller: true, handle: () => lifecycle.discover() },
      initialize: { eras: ['handshake'], handle: (p, c) => lifecycle.initialize(p, c) },
      ping: { eras: ['handshake'], handle: () => lifecycle.ping() },
      'tools/list': { eras: BOTH, perCaller: true, handle: (p, c) => tools.list(p, c) },
      'tools/call': this.toolCall,
      'resources/list': { eras: BOTH, perCaller: true, handle: (p, c) => resources.list(p, c) },
      'resources/templates/list': { eras: BOTH, perCaller: true, handle: (p, c) => resources.listTemplates(p, c) },
      'resources/read': {
        eras: BOTH,
        perCaller: true,
        call: 'resources/read',
        answer: async (p, c) => answeredRead(await resources.read(p, c)),
      },
      'prompts/list': { eras: BOTH, perCaller: true, handle: (p, c) => prompts.list(p, c) },
      'prompts/get': { eras: BOTH, call: 'prompts/get', answer: async (p, c) => answeredRead(await prompts.get(p, c)) },
      // A capability call too: completions return the caller's data (customer emails, ids).
      'completion/complete': {
        eras: BOTH,
        call: 'completion/complete',
        answer: async (p, c) => answeredRead(await completion.complete(p, c)),
      },
    };
    // The tasks extension (docs/tasks.md): in every era its gate is the extension declared on the request.
    this.routes['tasks/get'] = { eras: BOTH, handle: (p, c) => tasks.get(p, c) };
    this.routes['tasks/update'] = { eras: BOTH, handle: (p, c) => tasks.update(p, c) };
    this.routes['tasks/cancel'] = { eras: BOTH, handle: (p, c) => tasks.cancel(p, c) };
    if (options.streams) {
      // Methods that change a session: handshake era, stream mode only (2026-07-28 has neither).
      this.routes['logging/setLevel'] = { eras: ['handshake'], handle: (p, c) => streamMethods.setLevel(p, c) };
      this.routes['resources/subscribe'] = { eras: ['handshake'], handle: (p, c) => streamMethods.subscribe(p, c, true) };
      this.routes['resources/unsubscribe'] = { eras: ['handshake'], handle: (p, c) => streamMethods.subscribe(p, c, false) };
    }
  }

  async dispatch(message: InboundMessage, context: McpRequestContext): Promise<Result> {
    const route = Object.hasOwn(this.routes, message.method) ? this.routes[message.method] : undefined;
    if (!route || !route.eras.includes(context.era)) {
      // The 2026 era answers an unknown method with HTTP 404; the handshake era inside a 200 (docs/contract.md §2.5).
      throw new McpProtocolError(
        McpErrorCode.MethodNotFound,
        `Method not found: ${message.method}`,
        context.era === 'stateless' ? HttpStatus.NOT_FOUND : HttpStatus.OK,
      );
    }
    const result = await this.run(route, message, context);
    return context.era === 'stateless' ? this.statelessResult(result, route) : result;
  }

  /**
   * Runs a tool call a person approved (an approval page's Continue), in-process, through the same
   * pipeline as an agent's call (validation, guards, policy, interceptors, call hook), as whoever
   * `actingRequest` authenticates, without asking for confirmation again. Answers the tool result
   * as the agent would get it, without any era's decorations, so it can be stored and replayed.
   */
  async runApprovedCall(call: McpApprovedCall): Promise<CallToolResult> {
    const requestId = `approval:${call.approvalId}`;
    const context: McpRequestContext = {
      // No client is on the line: the sessionless era fits a one-shot call, and with no declared
      // capabilities nothing can be asked of anyone.
      era: 'stateless',
      protocolVersion: this.options.supportedVersions.find((version) => STATELESS_VERSIONS.includes(version)) ?? STATELESS_VERSIONS[0],
      method: 'tools/call',
      requestId,
      clientCapabilities: {},
      ...(call.clientInfo ? { clientInfo: call.clientInfo } : {}),
      meta: {},
      httpRequest: call.actingRequest,
      approved: { approvalId: call.approvalId },
    };
    const message = { id: requestId, method: 'tools/call', params: { name: call.tool, arguments: call.arguments } };
    const result = await this.run(this.toolCall, message, context);
    if (isInputRequiredResult(result)) {
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `${call.tool} asked for more input, which an approved call cannot give: nothing was done. Run it again from the client.`,
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
  async runTaskCall(
    task: McpTask,
    request: Request,
    run: { signal: AbortSignal; progress: McpTaskRunContext['progress']; completed(result: CallToolResult): Promise<void> },
  ): Promise<CallToolResult | InputRequiredResult> {
    const context = taskRunContext(task, request, run);
    const requestId = context.requestId!;
    const message = {
      id: requestId,
      method: 'tools/call',
      params: { name: task.tool, arguments: task.arguments, ...(task.inputResponses ? { inputResponses: task.inputResponses } : {}) },
    };
    const route = this.toolCall;
    const recording: CallRoute = {
      ...route,
      answer: async (params, ctx) => {
        const answered = await route.answer(params, ctx);
        const { status, isError } = answered.outcome;
        if (status !== 'input_required' && !isError && !run.signal.aborted) await run.completed(answered.result as CallToolResult);
        return answered;
      },
    };
    return (await this.run(recording, message, context)) as CallToolResult | InputRequiredResult;
  }

  private async run(route: MethodRoute, message: InboundMessage, context: McpRequestContext): Promise<Result> {
    if (!route.call) return stillWanted(await route.handle(message.params, context), context);
    // Stream mode, handshake era: a destructive call is confirmed in the chat BEFORE the hook, so
    // that nothing the application opens around a call (a transaction) waits for a person.
    if (route.call === 'tools/call' && context.stream) await this.streamConfirmation.askFirst(message.params, context);
    const call = this.callOf(route.call, message, context);
    return this.hook.around(call, async () => {
      const { result, outcome } = await route.answer(message.params, context);
      stillWanted(result, context);
      call.outcome = outcome;
      return result;
    });
  }

  private callOf(method: McpCall['method'], message: InboundMessage, context: McpRequestContext): McpCall {
    if (method === 'completion/complete') return completionCall(message.params, context);
    const { name, uri, arguments: args } = message.params;
    const target = method === 'resources/read' ? uri : name;
    const tool = method === 'tools/call' && typeof name === 'string' ? this.registry.tool(name) : undefined;
    // A call that may create a task writes (the task and its job, which must commit together), even
    // for a read-only tool; its run (`taskRun`) is as read-only as the tool.
    const readOnly = method !== 'tools/call' || (!!tool?.annotations.readOnlyHint && (!tool.task || !!context.taskRun));
    return {
      context,
      method,
      readOnly,
      target: typeof target === 'string' ? target : undefined,
      arguments: args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined,
    };
  }

  private statelessResult(result: Result, route: MethodRoute): Result {
    const meta = (result._meta as Result | undefined) ?? {};
    return {
      resultType: 'complete',
      ...result,
      ...(route.perCaller ? { ttlMs: 0, cacheScope: 'private' } : {}),
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
function completionCall(params: Params, context: McpRequestContext): McpCall {
  const { ref, argument } = params;
  const refName = isPlainObject(ref) ? (ref.type === 'ref/resource' ? ref.uri : ref.name) : undefined;
  const argumentName = isPlainObject(argument) ? argument.name : undefined;
  return {
    context,
    method: 'completion/complete',
    readOnly: true,
    target: typeof refName === 'string' ? `${refName}#${typeof argumentName === 'string' ? argumentName : ''}` : undefined,
    arguments: isPlainObject(argument)
      ? {
          argument,
          ...(isPlainObject(params.context) && params.context.arguments !== undefined ? { context: params.context.arguments } : {}),
        }
      : undefined,
  };
}
