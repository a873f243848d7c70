import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { McpTask, McpTaskRun } from '@nest-mcp/core/extensions';
import { McpDatabase, PgBossTaskQueue, PostgresTaskStore, type McpPrismaTaskOptions } from '../../src/index.js';
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../support/package-database.js';

/**
 * The pg-boss queue at scale, on a real PostgreSQL: how fast a job is picked up (an idle worker
 * on another replica, a backlog), how fair the order is across workspaces, how many of a
 * workspace run at once, and the store's active-task cap under concurrent creates. Each test has a
 * queue of its own, so jobs of one never reach another's workers. (pg-boss checks a workspace's
 * running cap per fetch: fetches racing at one instant may each take one of its jobs, so the cap
 * is what keeps workers free for others in the steady state, not an exact bound; the layer checks
 * its own count again before a run starts.)
 */

const LIMITS = { maxRunMs: 60_000, maxRunningPerWorkspace: 4 };

/** When each run started and ended, by task, and in which order they started. */
class Timeline {
  readonly starts = new Map<string, number>();
  readonly ends = new Map<string, number>();
  readonly order: string[] = [];

  runner(runMs: number): McpTaskRun {
    return async (taskId) => {
      this.starts.set(taskId, Date.now());
      this.order.push(taskId);
      await sleep(runMs);
      this.ends.set(taskId, Date.now());
      return { kind: 'done' };
    };
  }
}

async function eventually(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

function newTask(overrides: Partial<McpTask> = {}): McpTask {
  const now = new Date();
  return {
    id: randomUUID(),
    ownerKey: 'owner',
    tool: 'export',
    arguments: {},
    caller: {},
    client: { protocolVersion: '2026-07-28', capabilities: {} },
    followedAs: 'task',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    attempts: 0,
    ...overrides,
  };
}

describe('the task queue at scale on a real PostgreSQL', { skip: NEEDS_DATABASE, timeout: 180_000 }, () => {
  let database: PackageDatabase;
  const queues: PgBossTaskQueue[] = [];
  const databases: McpDatabase[] = [];

  /** A replica: its own pool and pg-boss, on this test's queue. */
  const replica = (queue: string, config: McpPrismaTaskOptions = {}) => {
    const own = new McpDatabase({ url: database.url });
    databases.push(own);
    const boss = new PgBossTaskQueue(own, { pollIntervalMs: 1000, superviseIntervalSeconds: 1, stopTimeoutMs: 1000, queue, ...config });
    queues.push(boss);
    return boss;
  };

  before(async () => {
    database = await createPackageDatabase({ name: 'mcp_queue_scale' });
  });

  after(async () => {
    for (const queue of queues) await queue.stop().catch(() => undefined);
    for (const own of databases) await own.onApplicationShutdown().catch(() => undefined);
    await database?.close();
  });

  it('an idle worker hears of a job queued on another replica within milliseconds, not at its next poll', async () => {
    const timeline = new Timeline();
    // A poll every 10 s: a pickup faster than that can only come from the notification.
    const worker = replica('scale-pickup', { workers: 1, pollIntervalMs: 10_000 });
    const web = replica('scale-pickup', { workers: 0 });
    await worker.start(timeline.runner(0), LIMITS);
    await web.start(timeline.runner(0), LIMITS);
    await sleep(500); // the worker's first (empty) fetch is behind it: it now waits for its poll
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const id = randomUUID();
      const sent = Date.now();
      await web.enqueue(id);
      await eventually(() => timeline.starts.has(id), 5000, `task ${i} to start`);
      waits.push(timeline.starts.get(id)! - sent);
      await sleep(200);
    }
    assert.ok(Math.max(...waits) < 1000, `waits ${waits.join(', ')} ms`);
  });

  it('a backlog drains at the speed of the work: 20 tasks of 50 ms on one worker in well under 20 polls', async () => {
    const timeline = new Timeline();
    const web = replica('scale-drain', { workers: 0 });
    await web.start(timeline.runner(0), LIMITS);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    for (const id of ids) await web.enqueue(id);
    const started = Date.now();
    const worker = replica('scale-drain', { workers: 1, pollIntervalMs: 1000 });
    await worker.start(timeline.runner(50), LIMITS);
    await eventually(() => ids.every((id) => timeline.ends.has(id)), 30_000, 'the backlog to drain');
    const took = Date.now() - started;
    // 20 × 50 ms of work; one job per poll (the old pace) would take ~20 s.
    assert.ok(took < 5000, `drained in ${took} ms`);
  });

  it("a workspace's first task goes before another's backlog, on a worker its cap keeps free", async () => {
    const timeline = new Timeline();
    const web = replica('scale-fair', { workers: 0 });
    await web.start(timeline.runner(0), LIMITS);
    // Workspace A's backlog of 12.
    const flood = Array.from({ length: 12 }, () => randomUUID());
    for (const id of flood) {
      await web.enqueue(id, { workspaceId: 'ws-a' });
    }
    const worker = replica('scale-fair', { workers: 3 });
    await worker.start(timeline.runner(200), { ...LIMITS, maxRunningPerWorkspace: 2 });
    await eventually(() => timeline.starts.size >= 2, 5000, 'the flood to start');
    const first = randomUUID();
    const sent = Date.now();
    await web.enqueue(first, { workspaceId: 'ws-b' });
    await eventually(() => timeline.starts.has(first), 5000, "workspace B's task to start");
    const wait = timeline.starts.get(first)! - sent;
    // A holds 2 of the 3 workers (its cap): the third is free for B at once, and B goes before A's backlog.
    assert.ok(wait < 300, `B's first task waited ${wait} ms behind A's backlog`);
    await eventually(() => flood.every((id) => timeline.ends.has(id)), 30_000, 'the flood to finish');
  });

  it('with one worker, a new workspace waits for at most the running task, not for the backlog', async () => {
    const timeline = new Timeline();
    const web = replica('scale-one-worker', { workers: 0 });
    await web.start(timeline.runner(0), LIMITS);
    const flood = Array.from({ length: 10 }, () => randomUUID());
    for (const id of flood) {
      await web.enqueue(id, { workspaceId: 'ws-a' });
    }
    const worker = replica('scale-one-worker', { workers: 1 });
    await worker.start(timeline.runner(150), LIMITS);
    await eventually(() => timeline.starts.size >= 1, 5000, 'the flood to start');
    const first = randomUUID();
    await web.enqueue(first, { workspaceId: 'ws-b' });
    await eventually(() => timeline.starts.has(first), 10_000, "workspace B's task to start");
    const before = timeline.order.indexOf(first);
    assert.ok(
      before <= 2,
      `B's task was run ${before + 1}th, behind ${before} of A's (at most the running one and the one fetched as B was sent)`,
    );
  });

  it("a workspace's own tasks keep their order: one sent after earlier ones finished still goes behind those waiting", async () => {
    const timeline = new Timeline();
    const web = replica('scale-own-order', { workers: 0 });
    await web.start(timeline.runner(0), LIMITS);
    const first = Array.from({ length: 5 }, () => randomUUID());
    for (const id of first) await web.enqueue(id, { workspaceId: 'ws-a' });
    const worker = replica('scale-own-order', { workers: 1 });
    await worker.start(timeline.runner(100), LIMITS);
    await eventually(() => timeline.ends.has(first[2]), 10_000, 'three of them to finish');
    const later = randomUUID();
    await web.enqueue(later, { workspaceId: 'ws-a' });
    await eventually(() => timeline.ends.has(later), 10_000, 'the later one to run');
    assert.deepEqual(timeline.order, [...first, later]);
  });

  it('the active-task cap holds under concurrent creates: 24 at once for a cap of 20 store exactly 20', async () => {
    const stores = Array.from({ length: 4 }, () => {
      const own = new McpDatabase({ url: database.url });
      databases.push(own);
      return new PostgresTaskStore(own);
    });
    const workspaceId = `ws-cap-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => stores[i % stores.length].create(newTask({ workspaceId }), { maxActive: 20 })),
    );
    assert.equal(results.filter(Boolean).length, 20);
    const [{ n }] = await database.rows<{ n: number }>(`SELECT count(*)::int AS n FROM mcp_tasks WHERE workspace_id = $1`, [workspaceId]);
    assert.equal(n, 20);
  });
});
