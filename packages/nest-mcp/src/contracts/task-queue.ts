import type { Request } from 'express';

/**
 * What the worker answers for one queued task: `done` (whatever the outcome, it is recorded on the
 * task) or `later` (the workspace runs as many tasks as it may: queue it again after `delayMs`).
 * A throw is a fault of the worker itself (the database unreachable): the queue retries the job.
 */
export type McpTaskRunOutcome = { kind: 'done' } | { kind: 'later'; delayMs: number };

/** The layer's worker: runs the task with this id (see `McpTaskWorker`). */
export type McpTaskRun = (taskId: string) => Promise<McpTaskRunOutcome>;

/**
 * The job queue that runs tasks, shared by every replica (the application gives one backed by a
 * real queue as the `taskQueue` option); the default runs them in this process.
 *
 * Guarantees the layer relies on:
 * - a job enqueued inside an open transaction exists if and only if that transaction commits
 *   (the task row and its job are created together), or the queue tolerates a job whose task is
 *   not visible yet by running it again later;
 * - a job whose worker died (kill -9) is handed to another worker after at most `maxRunMs`;
 * - a job is run by one worker at a time.
 * The layer makes running a task idempotent (the outcome commits with the work, a finished task is
 * not run again), so at-least-once delivery is enough.
 */
export interface McpTaskQueue {
  /** Starts taking jobs: `run` is called for each (at application bootstrap, on every replica that works). */
  start(run: McpTaskRun, limits: McpTaskQueueLimits): Promise<void>;
  /**
   * Queues a task's run. `delayMs`: not before then. `workspaceId` lets a queue be fair across
   * workspaces (a workspace's first task served before another's backlog) and hold each at
   * `maxRunningPerWorkspace`.
   */
  enqueue(taskId: string, options?: McpTaskEnqueueOptions): Promise<void>;
  /** Stops taking jobs and waits (bounded) for the running ones (at shutdown). */
  stop(): Promise<void>;
}

/** The layer's task limits a queue applies (`tasks` options). */
export interface McpTaskQueueLimits {
  maxRunMs: number;
  /** Tasks of one workspace running at once across replicas: a queue that can holds the others back at fetch time. */
  maxRunningPerWorkspace: number;
}

export interface McpTaskEnqueueOptions {
  delayMs?: number;
  workspaceId?: string;
}

export const MCP_TASK_QUEUE = Symbol('MCP_TASK_QUEUE');

/**
 * How a task acts as its caller when it runs, possibly on another replica, long after the request
 * that created it is gone. The application knows what identifies a caller (a principal, a token
 * id, a workspace), the layer does not.
 */
/** The tool call a task is made of, as `McpTaskCallers.capture` is told it. */
export interface McpTaskCallOrigin {
  tool: string;
  arguments?: Record<string, unknown>;
}

export interface McpTaskCallers {
  /**
   * At creation, from the request that asked: what identifies the caller (JSON; NEVER a
   * credential: it is stored with the task) and the workspace the task belongs to. `call` is the
   * tool call the task is made of (its tool, its arguments as the client sent them), for a
   * workspace the arguments name when no guard resolved one: read it there, not in the request's body.
   */
  capture(request: Request, call: McpTaskCallOrigin): Promise<{ caller: Record<string, unknown>; workspaceId?: string }>;
  /**
   * At each run: calls `work` with a request that acts as that caller again, which the
   * application's guards, policy and call hook read as they read the original (e.g. with the
   * principal already set), inside whatever per-request context the application keeps (its
   * AsyncLocalStorage, as its middleware would set it). Throws, without calling `work`, when the
   * caller may no longer act (a revoked token, a removed membership): the task fails with the
   * error's message, nothing done.
   */
  actAs<T>(caller: Record<string, unknown>, work: (request: Request) => Promise<T>): Promise<T>;
}

export const MCP_TASK_CALLERS = Symbol('MCP_TASK_CALLERS');

/**
 * What `McpTaskCallers.actAs` throws when the caller may no longer act: the task fails with this
 * message (JSON-RPC `-32600`), which the client reads. Any other error fails it as an internal error.
 */
export class McpTaskRefused extends Error {
  override readonly name = 'McpTaskRefused';
}
