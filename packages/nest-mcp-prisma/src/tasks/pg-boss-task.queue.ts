import { Logger } from '@nestjs/common';
import type { McpTaskEnqueueOptions, McpTaskQueue, McpTaskQueueLimits, McpTaskRun } from '@nest-mcp/core/extensions';
import type { Db, Job, PgBoss, Queue, SendOptions } from 'pg-boss';
import { raw, sqltag as sql } from '@prisma/client/runtime/client';
import type { McpDatabase } from '../database/mcp-database.js';
import { resolveTaskQueueOptions, type McpPrismaTaskOptions, type ResolvedTaskQueueOptions } from './task-queue.options.js';
import { transactionBossDb } from './transaction-boss-db.js';

const WARNING_EVERY_MS = 30_000;

/** What a job carries: its task, and its workspace (its group, kept for a `later` re-queue). */
interface TaskJob {
  taskId: string;
  workspaceId?: string;
}

/** pg-boss priorities are integers; a workspace's backlog deeper than this shares the lowest, in order of age. */
const LOWEST_PRIORITY = -1_000_000;

/**
 * The MCP layer's `taskQueue`: one pg-boss queue in the application's own PostgreSQL (no other
 * service; the embedded PGlite works too), shared by every replica. pg-boss is an optional peer
 * dependency, loaded when the queue first starts: an application without tasks need not install it.
 *
 * What the layer relies on, and how pg-boss gives it:
 * - a job enqueued inside an open transaction exists iff it commits: `send` gets a `db` of its own
 *   (`transactionBossDb`) that runs its INSERT through `McpDatabase`, in that transaction;
 * - a job whose worker died is handed to another: a running job's worker refreshes its heartbeat
 *   (`heartbeatSeconds`), and the supervisor of any replica with workers fails a job whose
 *   heartbeat stopped, which puts it back for a retry; a job claimed longer than the layer's
 *   `maxRunMs` plus a grace is failed the same way (`expireInSeconds`);
 * - one worker at a time: a job is claimed with `FOR UPDATE SKIP LOCKED` and is `active` until it
 *   completes, fails or expires.
 * A run answered `later` is queued again (`startAfter`) and its job completed in one transaction.
 *
 * How fast and how fair:
 * - an idle worker hears of a new job at once: the queue has `notify` on and pg-boss LISTENs
 *   (`useListenNotify`); polling every `pollIntervalMs` stays as the floor (a pooler that drops
 *   notifications, a missed one). A worker that just finished a job fetches again at once, so a
 *   backlog drains at the speed of the work, not one job per poll;
 * - fetches follow priority, then age: a job goes right behind its workspace's waiting jobs (one
 *   below the lowest priority among them, 0 when none waits), so a workspace's first task goes
 *   before another's backlog, a workspace's own tasks keep their order, and workspaces with
 *   backlogs take turns; `groupConcurrency` (a group per workspace) holds a workspace at the
 *   layer's `maxRunningPerWorkspace` running tasks across replicas, at fetch time.
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
  /** The layer's limits (known once `start` ran): each job's expiry, a workspace's running tasks. */
  private limits?: McpTaskQueueLimits;
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

  async start(run: McpTaskRun, limits: McpTaskQueueLimits): Promise<void> {
    this.limits = limits;
    const boss = await this.ready();
    // Jobs take the queue's settings unless sent with their own: keep them this deployment's (the layer's limit included).
    await boss.updateQueue(this.config.queue, this.queueOptions());
    if (!this.config.workers) {
      this.logger.log('Task workers: none in this process (tasks.workers: 0): tasks are only queued here');
      return;
    }
    if (this.workerIds.length) return;
    const polling = this.config.pollIntervalMs / 1000;
    for (let i = 0; i < this.config.workers; i++) {
      let self = '';
      const id = await boss.work<TaskJob>(
        this.config.queue,
        {
          // One job per fetch: a job fetched with others would wait for them, claimed but not started.
          batchSize: 1,
          pollingIntervalSeconds: polling,
          // With LISTEN on, pg-boss would poll every 30 s; a notification lost (a pooler) must cost no more than a poll.
          notifyPollingIntervalSeconds: polling,
          groupConcurrency: limits.maxRunningPerWorkspace,
        },
        async ([job]) => {
          await this.runJob(boss, run, job);
          // More may be waiting: fetch again now rather than after a poll (a short fetch then waits).
          boss.notifyWorker(self);
        },
      );
      self = id;
      this.workerIds.push(id);
    }
    const wakeUp = this.config.listen ? 'LISTEN/NOTIFY, polling' : 'polling';
    this.logger.log(
      `Task workers: ${this.config.workers} in this process, pg-boss queue "${this.config.queue}" in schema ${this.config.schema} ` +
        `(${wakeUp} every ${this.config.pollIntervalMs} ms)`,
    );
  }

  async enqueue(taskId: string, options: McpTaskEnqueueOptions = {}): Promise<void> {
    const boss = await this.ready();
    const delaySeconds = options.delayMs && options.delayMs > 0 ? options.delayMs / 1000 : undefined;
    const job: TaskJob = { taskId, ...(options.workspaceId !== undefined ? { workspaceId: options.workspaceId } : {}) };
    await boss.send(this.config.queue, job, {
      ...(await this.jobOptions(job)),
      ...(delaySeconds !== undefined ? { startAfter: delaySeconds } : {}),
      // In the caller's transaction when one is open (the task row is in it too).
      ...(this.database.inTransaction ? { db: this.inTransaction } : {}),
    });
    // A job due now: this replica's idle workers look at once (after the commit: before it they
    // would not see it), also where notifications do not arrive.
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
      await boss.send(this.config.queue, job.data, {
        ...(await this.jobOptions(job.data)),
        startAfter: Math.max(outcome.delayMs, 1) / 1000,
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
      // The application's database, the one McpDatabase uses, unless the queue is given its own connection.
      connectionString: this.config.connectionString ?? this.database.url,
      // One more connection, held for LISTEN: idle workers hear of a new job at once.
      useListenNotify: this.config.listen,
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
      notify: this.config.listen,
      // A running job's worker touches it this often / 2; one not touched for this long is dead.
      ...(this.config.heartbeatSeconds ? { heartbeatSeconds: this.config.heartbeatSeconds } : {}),
      ...(this.limits ? { expireInSeconds: this.expireInSeconds(this.limits.maxRunMs) } : {}),
    };
  }

  /** A job's own options: its expiry, and its place in the fair order (its workspace's group, its priority). */
  private async jobOptions(job: TaskJob): Promise<SendOptions> {
    const priority = job.workspaceId !== undefined ? await this.placeInLine(job.workspaceId) : 0;
    return {
      ...(this.limits ? { expireInSeconds: this.expireInSeconds(this.limits.maxRunMs) } : {}),
      ...(job.workspaceId !== undefined ? { group: { id: job.workspaceId } } : {}),
      ...(priority ? { priority } : {}),
    };
  }

  /**
   * Right behind the workspace's jobs still waiting (in the caller's transaction, where the task
   * store's per-workspace lock orders the creates): 0 when none waits. A priority fixed from a count
   * would let a later task overtake an earlier one once those before it finished.
   */
  private async placeInLine(workspaceId: string): Promise<number> {
    const { rows } = await this.database.sql<{ lowest: number | null }>(sql`
      SELECT min(priority) AS lowest FROM ${raw(`${this.config.schema}.job`)}
      WHERE name = ${this.config.queue} AND group_id = ${workspaceId} AND state < 'active'`);
    const lowest = rows[0]?.lowest;
    return lowest === null || lowest === undefined ? 0 : Math.max(Math.min(lowest, 1) - 1, LOWEST_PRIORITY);
  }

  /** `maxRunMs` plus the grace in which the layer records an overrun, in whole seconds (pg-boss's unit). */
  private expireInSeconds(maxRunMs: number): number {
    return Math.max(1, Math.ceil((maxRunMs + this.config.expiryGraceMs) / 1000));
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
