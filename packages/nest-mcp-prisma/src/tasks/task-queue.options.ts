/** How this replica takes part in running MCP tasks on pg-boss (`McpPrismaModule`'s `tasks` option). */
export interface McpPrismaTaskOptions {
  /**
   * Tasks this process runs at once. 0: it only enqueues (a web-only replica); the replicas with
   * workers run them. Default: 2.
   */
  workers?: number;
  /** How often an idle worker looks for a job queued on another replica, in ms (at least 500). Default: 1000. */
  pollIntervalMs?: number;
  /**
   * How often a replica with workers looks for jobs whose worker died (their run outlived its
   * limit), in seconds: a killed replica's job is retried at most this long after its limit. Default: 15.
   */
  superviseIntervalSeconds?: number;
  /**
   * Deliveries of one job after its first, each after a crash, an overrun or a fault of the worker
   * itself (the database unreachable). Keep it above the layer's `tasks.maxAttempts` (which fails
   * the task itself, with a message): a job out of retries is dropped, and its task would then
   * wait for its expiry. Default: 10.
   */
  retryLimit?: number;
  /**
   * How much longer than the layer's `maxRunMs` a job may stay claimed before the queue takes it
   * back, in ms: the layer stops an overrunning run at `maxRunMs` and records why, and that must
   * happen before another worker can start the same task again. Default: 5000.
   */
  expiryGraceMs?: number;
  /** At shutdown, how long running tasks get to finish before their jobs are handed back, in ms. Default: 10000. */
  stopTimeoutMs?: number;
  /** The PostgreSQL schema of pg-boss's tables (it creates and migrates them at its first start). Default: `pgboss`. */
  schema?: string;
  /** The pg-boss queue of task runs; applications sharing a database use their own. Default: `mcp-tasks`. */
  queue?: string;
}

export type ResolvedTaskQueueOptions = Required<McpPrismaTaskOptions>;

/** The options with every default filled; a wrong value stops the boot, naming the option. */
export function resolveTaskQueueOptions(options: McpPrismaTaskOptions = {}): ResolvedTaskQueueOptions {
  const whole = (name: keyof McpPrismaTaskOptions, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min)
      throw new Error(`McpPrismaModule: tasks.${name} must be a whole number ≥ ${min}, got ${value}`);
    return value;
  };
  const name = (option: 'schema' | 'queue', value: string, pattern: RegExp, what: string) => {
    if (!pattern.test(value)) throw new Error(`McpPrismaModule: tasks.${option} must be ${what}, got ${JSON.stringify(value)}`);
    return value;
  };
  return {
    workers: whole('workers', options.workers ?? 2, 0),
    pollIntervalMs: whole('pollIntervalMs', options.pollIntervalMs ?? 1000, 500),
    superviseIntervalSeconds: whole('superviseIntervalSeconds', options.superviseIntervalSeconds ?? 15, 1),
    retryLimit: whole('retryLimit', options.retryLimit ?? 10, 1),
    expiryGraceMs: whole('expiryGraceMs', options.expiryGraceMs ?? 5000, 0),
    stopTimeoutMs: whole('stopTimeoutMs', options.stopTimeoutMs ?? 10_000, 0),
    // Unquoted in pg-boss's statements: a plain lower-case identifier.
    schema: name('schema', options.schema ?? 'pgboss', /^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case identifier (a-z, 0-9, _)'),
    queue: name('queue', options.queue ?? 'mcp-tasks', /^[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, _, - or .'),
  };
}
