import { Logger } from '@nestjs/common';
import type { McpTaskQueue, McpTaskRun } from '@nest-mcp/core/extensions';
import type { Db, Job, PgBoss, Queue } from 'pg-boss';
import type { McpDatabase } from '../database/mcp-database.js';
import { resolveTaskQueueOptions, type McpPrismaTaskOptions, type ResolvedTaskQueueOptions } from './task-queue.options.js';
import { transactionBossDb } from './transaction-boss-db.js';

const WARNING_EVERY_MS = 30_000;

interface TaskJob {
  taskId: string;
}

/**
 * The MCP layer's `taskQueue`: one pg-boss queue in the application's own PostgreSQL (no other
 * service; the embedded PGlite works too), shared by every replica. pg-boss is an optional peer
 * dependency, loaded when the queue first starts: an application without tasks need not install it.
 *
 * What the layer relies on, and how pg-boss gives it:
 * - a job enqueued inside an open transaction exists iff it commits: `send` gets a `db` of its own
 *   (`transactionBossDb`) that runs its INSERT through `McpDatabase`, in that transaction;
 * - a job whose worker died is handed to another: every job carries `expireInSeconds` (the
 *   layer's `maxRunMs` plus a grace), and the supervisor of any replica with workers fails a job
 *   claimed longer than that, which puts it back for a retry (`retryLimit`: one crash, one retry);
 * - one worker at a time: a job is claimed with `FOR UPDATE SKIP LOCKED` and is `active` until it
 *   completes, fails or expires.
 * A run answered `later` is queued again (`startAfter`) and its job completed in one transaction.
 *
 * pg-boss starts (and installs its schema) when the layer starts the queue at bootstrap, on every
 * replica, with or without workers (`workers: 0`: it only enqueues), or at the first enqueue.
 */
export class PgBossTaskQueue implements McpTaskQueue {
  private readonly logger = new Logger('McpTaskQueue');
  private readonly inTransaction: Db;
  private booting?: Promise<PgBoss>;
  private stopping?: Promise<void>;
  private workerIds: string[] = [];
  private lastWarningAt = 0;
  private warningsHeld = 0;
  /** The layer's limit (known once `start` ran): each job's expiry. */
  private maxRunMs?: number;
  private readonly config: ResolvedTaskQueueOptions;

  constructor(
    private readonly database: McpDatabase,
    options: McpPrismaTaskOptions = {},
  ) {
    this.config = resolveTaskQueueOptions(options);
    this.inTransaction = transactionBossDb(database);
  }

  /** The PostgreSQL schema of pg-boss's tables and the queue's name, to look into the queue (`<schema>.job WHERE name = <queue>`). */
  get location(): { schema: string; queue: string } {
    return { schema: this.config.schema, queue: this.config.queue };
  }

  async start(run: McpTaskRun, limits: { maxRunMs: number }): Promise<void> {
    this.maxRunMs = limits.maxRunMs;
    const boss = await this.ready();
    // Jobs take the queue's settings unless sent with their own: keep them this deployment's (the layer's limit included).
    await boss.updateQueue(this.config.queue, this.queueOptions());
    if (!this.config.workers) {
      this.logger.log('Task workers: none in this process (tasks.workers: 0): tasks are only queued here');
      return;
    }
    if (this.workerIds.length) return;
    // One work() per worker, each fetching one job at a time: their ids let a local enqueue wake them all.
    for (let i = 0; i < this.config.workers; i++) {
      const id = await boss.work<TaskJob>(
        this.config.queue,
        { pollingIntervalSeconds: this.config.pollIntervalMs / 1000, batchSize: 1 },
        async ([job]) => this.runJob(boss, run, job),
      );
      this.workerIds.push(id);
    }
    this.logger.log(
      `Task workers: ${this.config.workers} in this process, pg-boss queue "${this.config.queue}" in schema ${this.config.schema}`,
    );
  }

  async enqueue(taskId: string, options: { delayMs?: number; workspaceId?: string } = {}): Promise<void> {
    const boss = await this.ready();
    const delaySeconds = options.delayMs && options.delayMs > 0 ? options.delayMs / 1000 : undefined;
    await boss.send(this.config.queue, { taskId } satisfies TaskJob, {
      ...(delaySeconds !== undefined ? { startAfter: delaySeconds } : {}),
      ...(this.maxRunMs !== undefined ? { expireInSeconds: this.expireInSeconds() } : {}),
      // In the caller's transaction when one is open (the task row is in it too).
      ...(this.database.inTransaction ? { db: this.inTransaction } : {}),
    });
    // A job due now: this replica's idle workers look at once instead of at their next poll (after the commit: before it they would not see it).
    if (delaySeconds === undefined && this.workerIds.length) this.database.afterCommit(() => this.wakeWorkers(boss));
  }

  /**
   * Stops taking jobs; running ones get `stopTimeoutMs` to finish, then their jobs are failed (and
   * retried elsewhere). The layer calls it at shutdown whether or not it started the queue, so
   * pg-boss's connections are closed also when only `enqueue` started it.
   */
  stop(): Promise<void> {
    const booting = this.booting;
    this.booting = undefined;
    this.workerIds = [];
    if (booting) {
      this.stopping = booting
        .catch(() => undefined)
        .then((boss) => boss?.stop({ graceful: true, timeout: this.config.stopTimeoutMs, close: true }));
    }
    // A second call (while the first still waits for running tasks) waits for the same stop.
    return this.stopping ?? Promise.resolve();
  }

  /**
   * One delivery. A throw (the database unreachable) fails the job, and pg-boss retries it after
   * a backoff. `later`: the next run is queued and this job completed in one transaction, so the
   * task never ends up with no job (nor with two, unless this process dies in between).
   */
  private async runJob(boss: PgBoss, run: McpTaskRun, job: Job<TaskJob>): Promise<void> {
    const outcome = await run(job.data.taskId);
    if (outcome.kind !== 'later') return;
    await this.database.transaction(async () => {
      await boss.send(this.config.queue, { taskId: job.data.taskId } satisfies TaskJob, {
        startAfter: Math.max(outcome.delayMs, 1) / 1000,
        ...(this.maxRunMs !== undefined ? { expireInSeconds: this.expireInSeconds() } : {}),
        db: this.inTransaction,
      });
      // Fenced to this attempt; pg-boss's own completion after the handler then finds it done.
      await boss.complete(this.config.queue, { id: job.id, retryCount: job.retryCount }, null, { db: this.inTransaction });
    });
  }

  private ready(): Promise<PgBoss> {
    this.booting ??= this.boot().catch((error: unknown) => {
      this.booting = undefined;
      throw error;
    });
    return this.booting;
  }

  private async boot(): Promise<PgBoss> {
    const supervise = this.config.workers > 0;
    const { PgBoss } = await loadPgBoss();
    const boss = new PgBoss({
      // The application's database, the one McpDatabase uses.
      connectionString: this.database.url,
      schema: this.config.schema,
      application_name: 'nest-mcp-task-queue',
      // Fetches, completions and supervision: one connection per worker and two more.
      max: this.config.workers + 2,
      // Expired claims (dead workers) and old jobs are looked after by replicas that run jobs.
      supervise,
      superviseIntervalSeconds: this.config.superviseIntervalSeconds,
      // The expiry check runs with the monitor's pass: as often as supervision.
      monitorIntervalSeconds: this.config.superviseIntervalSeconds,
      schedule: false,
      registerInstance: false,
    });
    boss.on('error', (error) => this.warn(error.message));
    boss.on('warning', (warning) => this.warn(warning.message));
    try {
      await boss.start();
      // Idempotent: the first replica creates it, the others find it.
      await boss.createQueue(this.config.queue, this.queueOptions());
    } catch (error) {
      await boss.stop({ graceful: false, close: true }).catch(() => undefined);
      throw error;
    }
    return boss;
  }

  private queueOptions(): Omit<Queue, 'name'> {
    return {
      retryLimit: this.config.retryLimit,
      // A worker's fault (the database down) is retried after 1 s, 2 s, 4 s… at most a minute apart.
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      // The task row is the record; a finished job is kept an hour, for looking into the queue.
      deleteAfterSeconds: 3600,
      ...(this.maxRunMs !== undefined ? { expireInSeconds: this.expireInSeconds() } : {}),
    };
  }

  /** `maxRunMs` plus the grace in which the layer records an overrun, in whole seconds (pg-boss's unit). */
  private expireInSeconds(): number {
    return Math.max(1, Math.ceil(((this.maxRunMs ?? 0) + this.config.expiryGraceMs) / 1000));
  }

  /** pg-boss's errors and warnings, at most one line per 30 s: a database down would otherwise log every poll of every worker. */
  private warn(message: string): void {
    const now = Date.now();
    if (now - this.lastWarningAt < WARNING_EVERY_MS) {
      this.warningsHeld++;
      return;
    }
    const held = this.warningsHeld ? ` (and ${this.warningsHeld} more in the last ${WARNING_EVERY_MS / 1000} s)` : '';
    this.lastWarningAt = now;
    this.warningsHeld = 0;
    this.logger.warn(`pg-boss: ${message}${held}`);
  }

  private wakeWorkers(boss: PgBoss): void {
    for (const id of this.workerIds) boss.notifyWorker(id);
  }
}

/** pg-boss, or an error that says how to get it. */
async function loadPgBoss(): Promise<typeof import('pg-boss')> {
  try {
    return await import('pg-boss');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error('PgBossTaskQueue needs pg-boss, an optional peer dependency of @nest-mcp/prisma: npm install pg-boss');
  }
}
