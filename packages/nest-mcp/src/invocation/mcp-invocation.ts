import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  RequestId,
} from '@modelcontextprotocol/server';
import type { Request } from 'express';
import type { ProtocolEra } from '../protocol/protocol-version.js';
import type { McpCallStream } from './call-stream.interface.js';
import type { McpSession } from './mcp-session.js';
import type { ResourceTemplateEntry, ToolEntry } from './capability-entries.js';

/** One MCP message being served: what guards, interceptors and handlers can learn about the caller. */
export interface McpRequestContext {
  era: ProtocolEra;
  protocolVersion: string;
  method: string;
  requestId?: RequestId;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** `params._meta` of the message (trace context, progress token, …). */
  meta: Record<string, unknown>;
  /** The HTTP request that carried the message (headers, authenticated user, …). */
  httpRequest: Request;
  /**
   * Set in-process only (never from the wire) when a person already approved this exact call,
   * e.g. by choosing Continue on an approval page: confirmation is not asked again.
   */
  approved?: { approvalId: string };
  /** Stream mode, handshake era: the session the request belongs to (`Mcp-Session-Id`). */
  session?: McpSession;
  /** Stream mode: aborts when the client disconnects before the answer is complete. */
  signal?: AbortSignal;
  /** Stream mode: the answer's stream (notifications and server→client requests). Internal to the layer. */
  stream?: McpCallStream;
  /**
   * Set in-process only, never from the wire: this call is a task's run on a worker (docs/tasks.md).
   * Everything checked when the task was accepted (idempotency key, confirmation) is not checked
   * again; the capability guards and the access policy are, as the caller is now (request guards
   * ran once, for the request that created the task).
   */
  taskRun?: McpTaskRunContext;
}

/** What a task's run adds to its call (see `McpRequestContext.taskRun`). */
export interface McpTaskRunContext {
  taskId: string;
  /** `invocation.progress` inside a task: becomes the task's `statusMessage`. */
  progress(done: number, total?: number, message?: string): Promise<void>;
}

/** The outcome of an in-chat confirmation asked before the call hook (see `McpInvocation.confirmedInChat`). */
export type InChatConfirmation = 'accepted' | 'declined' | 'too-many' | { error: unknown };

/** What kind of capability a handler was invoked as. */
export type McpTargetKind = 'tool' | 'resource' | 'prompt' | 'completion';

/**
 * The second argument a decorated method receives when called through MCP, and what
 * `ExecutionContext.getArgByIndex(1)` returns to guards and interceptors (see `McpExecutionContext`).
 */
export interface McpInvocation extends McpRequestContext {
  kind: McpTargetKind;
  /** Tool, prompt or resource name. */
  name: string;
  /**
   * `tools/call`: the tool, resolved once where the message was read. Guards and interceptors read
   * its annotations and schema here rather than looking the name up again.
   */
  tool?: ToolEntry;
  /** `resources/read` of a templated resource: the template the URI matched. */
  template?: ResourceTemplateEntry;
  /** The validated input: a DTO instance, template variables, or completion request. */
  input: unknown;
  /** `resources/read` only: the URI read. */
  uri?: string;
  /** The arguments as the client sent them (tools and prompts), before validation. */
  arguments?: Record<string, unknown>;
  /** SHA-256 of the canonical JSON of `arguments`: what binds state, approvals and idempotency keys. */
  argumentsHash?: string;
  /** Stable identity of the caller (see the `callerKey` option). */
  callerKey?: string;
  /** When the layer began serving the call (`performance.now()`); a tool envelope's `durationMs` counts from it. */
  startedAt: number;
  /**
   * Stream mode, handshake era, `tools/call` of a destructive tool: the person's answer to the
   * in-chat confirmation, asked by the layer BEFORE the application's call hook runs (so nothing,
   * e.g. a database transaction, is held open while a person decides). Set in-process only, never
   * from the wire; read by `McpConfirmationInterceptor`. `too-many`: not asked, the caller already
   * has `maxPendingConfirmationsPerCaller` confirmations waiting.
   */
  confirmedInChat?: InChatConfirmation;
  /**
   * Multi round-trip (2026 era): the client's answers to the `inputRequests` of a previous
   * `input_required` result, by key. Untrusted client input.
   */
  inputResponses?: Record<string, unknown>;
  /** Multi round-trip: the payload of the `requestState` the client echoed, verified and accepted once. */
  state?: unknown;
  /**
   * Reports progress when the client asked for it (`_meta.progressToken`) and takes SSE (stream
   * mode); otherwise does nothing. `done` must grow from one report to the next.
   */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message (`notifications/message`) when stream mode is on and the client wants
   * this level: the session's `logging/setLevel` (handshake era; all levels until set), or the
   * request's `_meta["io.modelcontextprotocol/logLevel"]` (2026-07-28; nothing without it).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the user through the client (`elicitation/create`), the same code in both eras: in the
   * handshake era (stream mode) over the call's stream; in 2026-07-28 as a multi round-trip
   * (`input_required`; the handler runs again from the start on the retry, with the answer, so
   * ask before writing anything).
   */
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
  /** Asks the client's model (`sampling/createMessage`); as `elicit`. */
  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /** Asks the client for its roots (`roots/list`); as `elicit`. */
  listRoots(): Promise<ListRootsResult>;
}
