import type { ToolEntry } from '../invocation/capability-entries.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import type { ToolStatus } from '../tool-results/tool-result.envelope.js';

/** One call of a capability: `tools/call`, `resources/read`, `prompts/get` or `completion/complete`. */
export interface McpCall {
  context: McpRequestContext;
  method: 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete';
  /**
   * Tool or prompt name, or resource URI, as the client sent it; for a completion, the prompt
   * name or template URI and the argument: `billing://customers/{id}#id`.
   */
  target: string | undefined;
  /**
   * `tools/call`: the tool `target` names, resolved once where the message was read (undefined for a
   * name no tool has). Every station after reads it here, or as `McpInvocation.tool`.
   */
  tool?: ToolEntry;
  /** When the layer began serving the call (`performance.now()`). */
  startedAt: number;
  /** The arguments as the client sent them (before validation); for a completion, `{ argument, context }`. */
  arguments: Record<string, unknown> | undefined;
  /** True for reads: `resources/read`, `prompts/get`, completions, and tools annotated `readOnlyHint`. */
  readOnly: boolean;
  /**
   * How the call ended, filled by the layer just before `proceed()` resolves; absent while the call
   * runs and when `proceed()` throws (the error is the outcome then).
   */
  outcome?: McpCallOutcome;
}

/**
 * How a capability call that answered ended, as the layer knew it when it wrote the answer: what a
 * hook audits and decides on (keep or roll back the call's writes) without reading the result.
 */
export interface McpCallOutcome {
  /**
   * `tools/call`: the status of the tool's envelope (docs/contract.md §3.3), `queued` for a task's
   * `CreateTaskResult` too, or `input_required` (the client must answer questions first, 2026
   * era). `resources/read`, `prompts/get`, `completion/complete`: `success` or `input_required`.
   */
  status: ToolStatus | 'input_required';
  /** The result is a tool error (`isError: true`): the call did not do what was asked, its writes must not stay. */
  isError: boolean;
  /** The `code` of the envelope's first error, when the call has one (`invalid_argument`, `idempotency_key_reused`, …). */
  errorCode?: string;
  /**
   * The answer an earlier call with the same idempotency key kept, sent again: nothing ran. Its
   * `status` is the first answer's (`queued` for a task or a queued job, else `success`).
   */
  replayed?: true;
  /** The task (or queued job) the call was accepted as, when it was (`queued`): its run's row and its end's carry the same id. */
  taskId?: string;
}

/** How a task ended outside its run's call (which `around` sees): see `McpCallHook.taskEnded`. */
export interface McpTaskEnd {
  taskId: string;
  /** `cancelled` by the client or a person; `refused`: its caller may no longer act when its run came; `failed`: given up. */
  outcome: 'cancelled' | 'refused' | 'failed';
  /** `task_cancelled`, `task_refused`, `task_gave_up` (its worker stopped too often) or `task_fault` (the run could not begin). */
  code: string;
  /** The task's status message: who cancelled, why it was refused. */
  message: string;
}

/**
 * Runs around every capability call, including refused and failed ones: where an application
 * adds a transaction and an audit trail. Given as the `callHook` option of `McpModule.forRoot()`.
 * `proceed()` resolves with the result the client will get (an `isError` tool result included),
 * and `call.outcome` then says what it is (its status, whether it is an error and the error's
 * code), so a hook never parses the result; or `proceed()` throws what will become a JSON-RPC
 * error (a refusal, a fault), and `call.outcome` stays empty.
 */
export interface McpCallHook {
  around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T>;
  /**
   * Optional: a task ended without a run of it passing through `around` (a cancel by the client or
   * a person, its caller refused when the run came, a run given up after crashes), so that an audit
   * trail has one row for every way a task ends. `call` is the task's tool call as its run would
   * have made it (`context.taskRun` names the task), in the request that ended it when one did (a
   * cancel). A throw is logged; the task's end stands.
   */
  taskEnded?(call: McpCall, end: McpTaskEnd): Promise<void>;
}

export const MCP_CALL_HOOK = Symbol('MCP_CALL_HOOK');

/** The default hook: runs the call as it is. */
export class PassThroughCallHook implements McpCallHook {
  around<T>(_call: McpCall, proceed: () => Promise<T>): Promise<T> {
    return proceed();
  }
}
