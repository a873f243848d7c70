import { integerVariable } from '../config/integer-variable.js';

/** How this replica takes part in running MCP tasks (src/tasks), from the environment (injected by {@link TASK_QUEUE_CONFIG}), validated at boot. */
export interface TaskQueueConfig {
  /**
   * `TASK_WORKERS`: tasks this process runs at once (default 2). `0`: it only enqueues (a web-only
   * replica, or a test that runs the queue's jobs itself); the replicas with workers run them.
   */
  workers: number;
  /** `TASK_POLL_MS` (default 1000, at least 500): how often an idle worker looks for a job queued on another replica. */
  pollIntervalMs: number;
  /**
   * `TASK_SUPERVISE_SECONDS` (default 15): how often a replica with workers looks for jobs whose
   * worker died (their run outlived its limit): a killed replica's job is retried at most this
   * long after its limit.
   */
  superviseIntervalSeconds: number;
  /**
   * `TASK_JOB_RETRIES` (default 10): deliveries of one job after its first, each after a crash, an
   * overrun or a fault of the worker itself (the database unreachable). It must stay above the
   * layer's own `tasks.maxAttempts` (which fails the task itself, with a message, once reached): a
   * job out of retries is dropped, and its task would then wait for its expiry.
   */
  retryLimit: number;
  /**
   * How much longer than the layer's `maxRunMs` a job may stay claimed before the queue takes it
   * back (5 s): the layer stops an overrunning run at `maxRunMs` and records why, and that must
   * happen before another worker can start the same task again.
   */
  expiryGraceMs: number;
  /** `TASK_STOP_TIMEOUT_MS` (default 10000): at shutdown, how long running tasks get to finish before their jobs are handed back. */
  stopTimeoutMs: number;
}

export const TASK_QUEUE_CONFIG = Symbol('TASK_QUEUE_CONFIG');

/** The variables above; a bad value stops the boot, naming the variable. */
export function taskQueueConfigFromEnv(env: NodeJS.ProcessEnv): TaskQueueConfig {
  return {
    workers: integerVariable(env, 'TASK_WORKERS', 2, 0),
    pollIntervalMs: integerVariable(env, 'TASK_POLL_MS', 1000, 500),
    superviseIntervalSeconds: integerVariable(env, 'TASK_SUPERVISE_SECONDS', 15, 1),
    retryLimit: integerVariable(env, 'TASK_JOB_RETRIES', 10, 1),
    expiryGraceMs: 5000,
    stopTimeoutMs: integerVariable(env, 'TASK_STOP_TIMEOUT_MS', 10_000, 1000),
  };
}
