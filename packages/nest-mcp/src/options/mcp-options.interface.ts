import type { Implementation } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import type { JsonSchema } from '../schema/json-schema.types.js';
import type { McpViewOptions } from './mcp-view.options.js';

/**
 * How a person confirms a destructive tool (docs/contract.md §4.1). `elicitation-or-link`: in the chat when the
 * client can ask (2026 era, form elicitation), else by approval link. `link`: always by approval
 * link, signed in to the admin pages, whatever the client declares.
 */
export type McpConfirmationMode = 'elicitation-or-link' | 'link';

/** What a host application passes to `McpModule.forRoot()` / `forRootAsync()`. Every field has a default. */
export interface McpModuleOptions {
  /** Endpoint path of the JSON-RPC controller. Default `/mcp`. */
  path?: string;
  /** `serverInfo`: name, title and version shown to clients. */
  serverInfo?: Partial<Pick<Implementation, 'name' | 'title' | 'version'>>;
  /** Text for the model, sent by `initialize` and `server/discover`. */
  instructions?: string;
  /** Protocol revisions this endpoint speaks, newest first. Default 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26. */
  supportedVersions?: string[];
  /** Largest accepted request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long the whole body may take to arrive once the headers are in, before `408` (slow-body guard). Default 30 000 ms. */
  bodyTimeoutMs?: number;
  /**
   * A body larger than this (declared, or once this much has streamed) is read only after the
   * `authenticateLargeBody` hook given to `useMcpTransport` accepted the request's credentials,
   * so an anonymous caller cannot make the server buffer and parse megabytes. Default 64 KiB.
   */
  largeBodyBytes?: number;
  /**
   * Origins allowed to call the endpoint (browser clients send `Origin`). Default: the server's
   * own origin and any localhost origin. `['*']` disables the check.
   */
  allowedOrigins?: string[];
  /**
   * Host names accepted in the `Host` header when the server is bound to a loopback address
   * (DNS-rebinding protection). Default: localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: string[];
  /**
   * Largest tool result sent to a client, in bytes of the result's JSON (the envelope, or a
   * handler's own `CallToolResult`). A larger one is not sent: the call answers `result_too_large`
   * (the size, the limit, and to ask for less or page), and a warning names the tool. Default
   * 1 MiB: about 250 000 tokens, more than a model can take in at once (hosts cut tool output far
   * below it), as large as a request may be (`maxBodyBytes`). Content that large belongs in a
   * resource the tool links to (`ToolReply.success(data, { resourceLinks })`). REST is not limited.
   */
  maxResultBytes?: number;
  /** Page size of `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`. Default 100. */
  pageSize?: number;
  /** Refuse tool arguments that the input DTO does not declare (and say so in the schema). Default true. */
  forbidUnknownArguments?: boolean;
  /**
   * Fields of the client contract an app speaks beyond the layer's own (`code`, `message`, `field`,
   * `retryable`) in each entry of a tool result's `errors`: copied from the response body of a 4xx
   * `HttpException` when they are strings, and declared in every `outputSchema`. E.g.
   * `{ message_es: { type: 'string', description: 'The message in Spanish, for the user.' } }`. Default none.
   */
  toolErrorFields?: Record<string, JsonSchema>;
  /**
   * What happens to a tool annotated `destructiveHint: true` (docs/contract.md §4.1). It never runs without a
   * person's yes: a 2026-era client that declared form `elicitation` is asked in the chat (multi
   * round-trip). Any other client: `confirm` (default) answers `pending_confirmation` with an
   * approval link from the application's `MCP_APPROVAL_LINKS` (refused when none is provided);
   * `refuse` refuses the call outright.
   */
  destructiveTools?: 'confirm' | 'refuse';
  /**
   * The least a destructive tool's confirmation requires (docs/contract.md §4.1). `elicitation-or-link`
   * (default): each tool's own `confirmation` decides. `link`: every destructive tool needs the
   * approval page, even from clients that could confirm in the chat. With `destructiveTools:
   * 'refuse'` (no links) a `link` tool cannot be confirmed over MCP at all: it is refused.
   */
  destructiveConfirmation?: McpConfirmationMode;
  /** Multi round-trip `requestState` sealing. */
  requestState?: {
    /**
     * HMAC key, at least 32 bytes, shared by every replica. Default: random per process (a
     * warning is logged; a retry landing on another replica would then be refused).
     */
    secret?: string | Uint8Array;
    /** How long a state stays valid. Default 600 s. */
    ttlSeconds?: number;
  };
  /**
   * Name of the argument that carries an idempotency key (docs/contract.md §3.5). A tool that is not read-only
   * and declares this argument gets its first answer stored per key through the application's
   * `MCP_IDEMPOTENCY_STORE`. Default `idempotency_key`.
   */
  idempotencyKeyArgument?: string;
  /**
   * Who is calling, as a stable string: binds `requestState` to the caller, and in stateless mode
   * keys the client info a handshake-era `initialize` gave (`clientInfoStore`). Default: a hash of
   * the credentials the request carried (`Authorization`, `X-API-Key`).
   */
  callerKey?: (request: Request) => string | undefined;
  /**
   * Stream mode (off by default; `true` = the defaults below): SSE answers carrying progress and
   * log notifications, handshake-era sessions (`Mcp-Session-Id`), server→client requests
   * (elicitation, sampling, roots), `GET` streams, resource subscriptions and resumable streams.
   * Several replicas need the shared backends (`MCP_SESSION_STORE`, `MCP_EVENT_STORE`,
   * `MCP_MESSAGE_BUS`); see docs/streams.md.
   */
  streams?: boolean | McpStreamOptions;
  /** Long work as tasks (tools declared with `task`): retention, limits, the job tool. See docs/tasks.md. */
  tasks?: McpTaskOptions;
  /**
   * App views no single tool owns (docs/app-views.md), e.g. a package's: tools link them by URI
   * (`@McpTool({ view: 'ui://…' })`). A view no tool links is served to every caller. Default none.
   */
  views?: McpViewOptions[];
  /**
   * The `ui://` URI of the view destructive tools' confirmations show (docs/app-views.md): a view
   * declared in `views` or by a tool (checked at boot). Default: none.
   */
  confirmationView?: string;
}

/** Limits of tasks. Every field but `jobTool` has a default. */
export interface McpTaskOptions {
  /** How long a task stays readable after it was created (`ttlMs`); then it is purged. Default 86 400 000 (a day). */
  ttlMs?: number;
  /** How often a client should poll `tasks/get` (`pollIntervalMs`). Default 1000. */
  pollIntervalMs?: number;
  /** A run taking longer is stopped and the task fails; also how long a dead worker's job waits before another takes it. Default 600 000 (10 min). */
  maxRunMs?: number;
  /** Runs a task may start (a run cut short by a crash counts); past it, the task fails. Default 2 (one retry after a crash). */
  maxAttempts?: number;
  /** Unfinished tasks one workspace (or one caller, without workspaces) may have; the next call gets `too_many_tasks`. Default 20. */
  maxActivePerWorkspace?: number;
  /** Tasks of one workspace running at once, across replicas; the others wait in the queue. Default 4. */
  maxRunningPerWorkspace?: number;
  /**
   * Most a task may store of the call's arguments, and of the client's answers, each as JSON
   * bytes; a bigger call gets `task_too_large` and nothing is stored. Default 262 144 (256 KiB).
   */
  maxStoredBytes?: number;
  /** How often a running task checks whether it was cancelled from another replica. Default 1000 ms. */
  cancelCheckMs?: number;
  /** How often expired tasks are purged. Default 60 000 ms. */
  purgeEveryMs?: number;
  /**
   * The tool a client without the tasks extension follows a `queued` job with (named in the
   * `queued` answer). Required when a tool is declared `task: 'background'` (checked at boot).
   */
  jobTool?: string;
}

export type ResolvedTaskOptions = Required<Omit<McpTaskOptions, 'jobTool'>> & Pick<McpTaskOptions, 'jobTool'>;

/** Limits of stream mode. Every field has a default. */
export interface McpStreamOptions {
  /** A session not used for this long expires (sliding). Default 3600 s. */
  sessionTtlSeconds?: number;
  /** How long a server→client request (elicitation, sampling, roots) waits for the client's answer. Default 120 000 ms. */
  clientRequestTimeoutMs?: number;
  /** Open SSE streams (POST answers and GET streams) one caller may hold at once. Default 8. */
  maxStreamsPerCaller?: number;
  /** Open SSE streams this process holds at once. Default 1000. */
  maxStreams?: number;
  /**
   * Live sessions one caller may hold at once (in the session store, across replicas); an
   * `initialize` above it gets `409` (`-32600`) until one is ended (`DELETE`) or expires. Default 100.
   */
  maxSessionsPerCaller?: number;
  /** URIs one session may be subscribed to at once (`resources/subscribe`); the next one gets `-32600`. Default 100. */
  maxSubscriptionsPerSession?: number;
  /** A `GET` stream that carried nothing for this long is closed (the client reconnects). Default 300 000 ms. */
  idleStreamMs?: number;
  /**
   * How often the credentials of open `GET` streams are checked again (`McpAccessPolicy.revalidate`,
   * when the policy has it): the longest a revoked token's stream stays open. Default 1000 ms.
   */
  revalidateMs?: number;
  /**
   * How long a replica that receives a client's answer waits for the replica running the call to
   * take it; past it the answer is refused (nobody waits for it: that call was lost). Default 2000 ms.
   */
  answerTakenMs?: number;
  /**
   * In-chat confirmations of destructive tools (handshake era) one caller may have waiting for the
   * user at once, per process; the next destructive call gets `too_many_pending_confirmations`. Default 4.
   */
  maxPendingConfirmationsPerCaller?: number;
}

export type ResolvedStreamOptions = Required<McpStreamOptions>;

/** The options with every default applied; the only shape the rest of the layer reads. */
export interface ResolvedMcpOptions {
  path: string;
  serverInfo: { name: string; title: string; version: string };
  instructions: string;
  supportedVersions: string[];
  maxBodyBytes: number;
  maxResultBytes: number;
  bodyTimeoutMs: number;
  largeBodyBytes: number;
  allowedOrigins: string[];
  allowedHosts: string[];
  pageSize: number;
  forbidUnknownArguments: boolean;
  toolErrorFields: Record<string, JsonSchema>;
  destructiveTools: 'confirm' | 'refuse';
  destructiveConfirmation: McpConfirmationMode;
  requestState: { secret?: string | Uint8Array; ttlSeconds: number };
  idempotencyKeyArgument: string;
  callerKey: (request: Request) => string | undefined;
  /** Undefined when stream mode is off (the default). */
  streams?: ResolvedStreamOptions;
  tasks: ResolvedTaskOptions;
  views: McpViewOptions[];
  confirmationView?: string;
}
