import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/server';

/** The statuses of the tasks extension (`io.modelcontextprotocol/tasks`, docs/tasks.md). */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_TASK_STATUSES: readonly McpTaskStatus[] = ['completed', 'failed', 'cancelled'];

/** A JSON-RPC error, as a `failed` task keeps it. */
export interface McpTaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * One tool call accepted now and run later, by whichever replica's worker takes it: everything the
 * worker needs to run it as the caller would have, and everything `tasks/get` answers.
 */
export interface McpTask {
  /** Unguessable (122 random bits): the id is all a caller needs to follow its task. */
  id: string;
  /** Who may see and steer it: the `callerKey` of the request that created it. */
  ownerKey: string;
  /** The tenant the task runs in, as `McpTaskCallers.capture` reported it: limits and admin lists. */
  workspaceId?: string;
  tool: string;
  /** The arguments as the client sent them. */
  arguments: Record<string, unknown>;
  /** What `McpTaskCallers.capture` kept of the caller (never a credential): how the worker acts as them. */
  caller: Record<string, unknown>;
  /** The client as it was when the task was created: what it can answer while the task runs. */
  client: { protocolVersion: string; capabilities: ClientCapabilities; info?: Implementation };
  /** Whether the client follows it with `tasks/*` (`task`) or with the job tool (`job`: no tasks extension). */
  followedAs: 'task' | 'job';
  status: McpTaskStatus;
  statusMessage?: string;
  /** `input_required`: the questions still open, by key (SEP-2322 shape). */
  inputRequests?: Record<string, unknown>;
  /** Every answer the client gave so far, by key: the handler's next run finds them. */
  inputResponses?: Record<string, unknown>;
  /** `completed`: the tool result (an `isError` one included). */
  result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error that ended it. */
  error?: McpTaskError;
  createdAt: Date;
  lastUpdatedAt: Date;
  /** When the last run started; absent while it waits in the queue. */
  startedAt?: Date;
  /** createdAt + ttlMs: after it, the task may be purged (`tasks/get` then answers "not found"). */
  expiresAt: Date;
  /** Runs started so far (a run cut short by a crash counts). */
  attempts: number;
}

/** What a status change may set along with the status. */
export type McpTaskPatch = Partial<
  Pick<McpTask, 'statusMessage' | 'inputRequests' | 'inputResponses' | 'result' | 'error' | 'startedAt' | 'attempts'>
> & { status?: McpTaskStatus };

/**
 * Where tasks live. Shared by every replica in a deployment of several (the application gives a
 * database-backed store as the `taskStore` option); the default holds them in this process's memory.
 *
 * Writes made while a call hook's transaction is open must join it: a task created by a call
 * commits with that call, and a task's outcome commits with the work's own writes.
 */
export interface McpTaskStore {
  /**
   * Stores a new task; once this resolves (and the surrounding transaction, if any, commits) `get`
   * finds it. With `limit`, only if fewer than `maxActive` tasks of its workspace (of its owner when
   * it has none) are unfinished, decided atomically across replicas (two creates racing for the
   * last place: one wins). Returns whether it stored the task (false: the workspace is full).
   */
  create(task: McpTask, limit?: { maxActive: number }): Promise<boolean>;
  /** The task, or undefined when unknown or expired. */
  get(id: string): Promise<McpTask | undefined>;
  /**
   * Compare-and-set, atomic across replicas: applies `patch` (and bumps `lastUpdatedAt`) only if
   * the task's status is one of `from`. Returns the task as updated, or undefined when its status
   * was not in `from` (another replica moved it first, e.g. a cancel) or it does not exist.
   */
  transition(id: string, from: readonly McpTaskStatus[], patch: McpTaskPatch): Promise<McpTask | undefined>;
  /**
   * Sets the status message of a `working` task (its progress), OUTSIDE any open transaction: the
   * work reporting it runs inside one, and the client must see the progress before it commits.
   */
  report(id: string, statusMessage: string): Promise<void>;
  /**
   * Takes the client's answers to open questions, atomically: answers to keys that are not open
   * are ignored; answered keys leave `inputRequests` and join `inputResponses`. When no question
   * stays open the task goes back to `working`. Returns the task as updated (undefined: unknown).
   */
  answer(id: string, responses: Record<string, unknown>): Promise<McpTask | undefined>;
  /** Tasks not finished (`working` or `input_required`) in a workspace, or of an owner when no workspace is known. */
  countActive(scope: { workspaceId?: string; ownerKey: string }): Promise<number>;
  /** Tasks of a workspace currently running (`working` with a run started). */
  countRunning(workspaceId: string): Promise<number>;
  /** Deletes tasks past `expiresAt`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}

export const MCP_TASK_STORE = Symbol('MCP_TASK_STORE');
