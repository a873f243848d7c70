import type { McpPrismaTaskOptions } from '@nest-mcp/prisma';
import { integerVariable } from '../config/integer-variable.js';

/**
 * How this replica takes part in running MCP tasks: `@nest-mcp/prisma`'s `tasks` option (the
 * pg-boss queue), from the environment (injected by {@link TASK_QUEUE_CONFIG}), validated at boot.
 * - `TASK_WORKERS` (default 2): tasks this process runs at once; `0`: it only enqueues.
 * - `TASK_POLL_MS` (default 1000, at least 500): how often an idle worker looks for a job (the floor under the
 *   LISTEN/NOTIFY wake-up, which is on).
 * - `TASK_QUEUE_DATABASE_URL` (default: the app's database): the queue's own connection. Behind a transaction-mode
 *   pooler (PgBouncer, a managed pooler) point it at a direct connection, where LISTEN works; without it, a job
 *   queued on another replica is found at the next poll.
 * - `TASK_HEARTBEAT_SECONDS` (default 10; 0 or at least 10): a running task's worker not heard from for this long
 *   is dead, and its task runs again on another replica.
 * - `TASK_SUPERVISE_SECONDS` (default 10): how often a replica with workers looks for jobs whose worker died.
 * - `TASK_JOB_RETRIES` (default 10): deliveries of one job after its first; above the layer's `tasks.maxAttempts`.
 * - `TASK_STOP_TIMEOUT_MS` (default 10000): at shutdown, how long running tasks get to finish.
 */
export type TaskQueueConfig = McpPrismaTaskOptions;

export const TASK_QUEUE_CONFIG = Symbol('TASK_QUEUE_CONFIG');

/** The variables above; a bad value stops the boot, naming the variable. */
export function taskQueueConfigFromEnv(env: NodeJS.ProcessEnv): TaskQueueConfig {
  return {
    workers: integerVariable(env, 'TASK_WORKERS', 2, 0),
    pollIntervalMs: integerVariable(env, 'TASK_POLL_MS', 1000, 500),
    ...(env.TASK_QUEUE_DATABASE_URL?.trim() ? { connectionString: env.TASK_QUEUE_DATABASE_URL.trim() } : {}),
    heartbeatSeconds: integerVariable(env, 'TASK_HEARTBEAT_SECONDS', 10, 0),
    superviseIntervalSeconds: integerVariable(env, 'TASK_SUPERVISE_SECONDS', 10, 1),
    retryLimit: integerVariable(env, 'TASK_JOB_RETRIES', 10, 1),
    stopTimeoutMs: integerVariable(env, 'TASK_STOP_TIMEOUT_MS', 10_000, 1000),
  };
}
