/** How this replica takes part in running MCP tasks on pg-boss (`McpPrismaModule`'s `tasks` option). */
export interface McpPrismaTaskOptions {
  /**
   * Tasks this process runs at once. 0: it only enqueues (a web-only replica); the replicas with
   * workers run them. Default: 2.
   */
  workers?: number;
  /**
   * How often an idle worker looks for a job, in ms (at least 500): the floor under LISTEN/NOTIFY,
   * and the only way a job queued on another replica is found with `listen: false`. Default: 1000.
   */
  pollIntervalMs?: number;
  /**
   * Wake idle workers the moment a job is queued on any replica (PostgreSQL LISTEN/NOTIFY, one
   * extra connection per replica). LISTEN needs a session: through a transaction-mode pooler
   * (PgBouncer and most managed poolers) notifications never arrive, so give the queue a direct
   * connection (`connectionString`) or set this to false; pickup then falls back to
   * `pollIntervalMs` (and to at once for a job queued on the worker's own replica). Default: true.
   */
  listen?: boolean;
  /**
   * The queue's own PostgreSQL connection (pg-boss's pool: one connection per worker, two more,
   * one for LISTEN). Default: the application's (`McpDatabase`). Set it to a direct connection
   * when the application's goes through a transaction-mode pooler. A task and its job are still
   * created in the call's transaction, on the application's connection.
   */
  connectionString?: string;
  /**
   * How long a running job may go without its worker's heartbeat before it is taken back and
   * retried, in seconds (at least 10; 0: no heartbeats, a dead worker's job waits for its claim to
   * expire, `maxRunMs` plus `expiryGraceMs`). A killed replica's task runs again on another at
   * most about this plus `superviseIntervalSeconds` later, whatever `maxRunMs` is. Default: 10.
   */
  heartbeatSeconds?: number;
  /**
   * How often a replica with workers looks for jobs whose worker died (heartbeat stopped, or claim
   * expired), in seconds. Default: 10.
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

export type ResolvedTaskQueueOptions = Required<Omit<McpPrismaTaskOptions, 'connectionString'>> &
  Pick<McpPrismaTaskOptions, 'connectionString'>;

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
  // pg-boss refuses a heartbeat under 10 s; 0 turns them off.
  const heartbeat = (value: number) => {
    if (value === 0 || (Number.isInteger(value) && value >= 10)) return value;
    throw new Error(`McpPrismaModule: tasks.heartbeatSeconds must be 0 (off) or a whole number ≥ 10, got ${value}`);
  };
  return {
    workers: whole('workers', options.workers ?? 2, 0),
    pollIntervalMs: whole('pollIntervalMs', options.pollIntervalMs ?? 1000, 500),
    listen: options.listen ?? true,
    ...(options.connectionString ? { connectionString: options.connectionString } : {}),
    heartbeatSeconds: heartbeat(options.heartbeatSeconds ?? 10),
    superviseIntervalSeconds: whole('superviseIntervalSeconds', options.superviseIntervalSeconds ?? 10, 1),
    retryLimit: whole('retryLimit', options.retryLimit ?? 10, 1),
    expiryGraceMs: whole('expiryGraceMs', options.expiryGraceMs ?? 5000, 0),
    stopTimeoutMs: whole('stopTimeoutMs', options.stopTimeoutMs ?? 10_000, 0),
    // Unquoted in pg-boss's statements: a plain lower-case identifier.
    schema: name('schema', options.schema ?? 'pgboss', /^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case identifier (a-z, 0-9, _)'),
    queue: name('queue', options.queue ?? 'mcp-tasks', /^[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, _, - or .'),
  };
}
