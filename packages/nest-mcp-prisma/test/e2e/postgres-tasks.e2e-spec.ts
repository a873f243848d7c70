import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { McpTask, McpTaskRun } from '@nest-mcp/core/extensions';
import { McpDatabase, PgBossTaskQueue, PostgresTaskStore, type McpPrismaTaskOptions } from '../../src/index.js';
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../support/package-database.js';

/**
 * The package's task backends against a real PostgreSQL (DATABASE_URL): the store's contract
 * (`McpTaskStore` of @nest-mcp/core) and the pg-boss queue's guarantees (transactional enqueue, one
 * run at a time, a dead worker's job handed over after its limit).
 */

const FIXTURE = fileURLToPath(new URL('../fixtures/task-queue-replica.fixture.ts', import.meta.url));

/** Fast timings for tests: pg-boss polls every 500 ms at best, supervises every second at best. */
const queueConfig = (overrides: McpPrismaTaskOptions = {}): McpPrismaTaskOptions => ({
  workers: 2,
  pollIntervalMs: 500,
  superviseIntervalSeconds: 1,
  retryLimit: 5,
  expiryGraceMs: 0,
  stopTimeoutMs: 2000,
  ...overrides,
});

/** A time as the store keeps it (milliseconds). */
const at = (offsetMs = 0) => new Date(Math.floor(Date.now() / 1000) * 1000 + offsetMs);

function newTask(overrides: Partial<McpTask> = {}): McpTask {
  return {
    id: randomUUID(),
    ownerKey: `owner-${randomUUID()}`,
    tool: 'invoices_export',
    arguments: { format: 'csv', nested: { list: [1, 'two', null] } },
    caller: { v: 1, userId: 'u' },
    client: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, info: { name: 'client', version: '1.0.0' } },
    followedAs: 'task',
    status: 'working',
    statusMessage: 'Queued',
    createdAt: at(),
    lastUpdatedAt: at(),
    expiresAt: at(3_600_000),
    attempts: 0,
    ...overrides,
  };
}

/** Resolves when `predicate` holds, polling; fails after `timeoutMs`. */
async function eventually(predicate: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > until) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** The pg-boss jobs of one task (in the default schema and queue): how many were sent, in which states. */
async function jobsOf(database: PackageDatabase, taskId: string): Promise<Array<{ state: string; retry_count: number }>> {
  return database.rows(
    `SELECT state::text AS state, retry_count FROM pgboss.job WHERE name = 'mcp-tasks' AND data->>'taskId' = $1 ORDER BY created_on`,
    [taskId],
  );
}

/** Records every run a queue makes: which task, when, and how many of one task ran at once. */
class RunLog {
  readonly runs: Array<{ taskId: string; at: number; by: string }> = [];
  private readonly running = new Map<string, number>();
  overlaps = 0;

  runner(
    by: string,
    body: (taskId: string, nth: number) => Promise<Awaited<ReturnType<McpTaskRun>>> = async () => ({ kind: 'done' }),
  ): McpTaskRun {
    return async (taskId) => {
      const nth = this.count(taskId) + 1;
      this.runs.push({ taskId, at: Date.now(), by });
      const now = (this.running.get(taskId) ?? 0) + 1;
      if (now > 1) this.overlaps++;
      this.running.set(taskId, now);
      try {
        return await body(taskId, nth);
      } finally {
        this.running.set(taskId, (this.running.get(taskId) ?? 1) - 1);
      }
    };
  }

  count(taskId: string): number {
    return this.runs.filter((run) => run.taskId === taskId).length;
  }
}

describe('task backends on a real PostgreSQL', { skip: NEEDS_DATABASE, timeout: 180_000 }, () => {
  let database: PackageDatabase;
  let db: McpDatabase;
  let store: PostgresTaskStore;
  let workspaceA: string;
  let workspaceB: string;
  const queues: PgBossTaskQueue[] = [];
  const databases: McpDatabase[] = [];

  /** Another "replica": its own pool, its own pg-boss. */
  const replica = (config: McpPrismaTaskOptions) => {
    const own = new McpDatabase({ url: database.url });
    databases.push(own);
    const queue = new PgBossTaskQueue(own, config);
    queues.push(queue);
    return { db: own, queue };
  };

  before(async () => {
    database = await createPackageDatabase();
    db = new McpDatabase({ url: database.url });
    store = new PostgresTaskStore(db);
    // A tenant is text to the package: whatever the application's ids are.
    workspaceA = randomUUID();
    workspaceB = `workspace-${randomUUID()}`;
  });

  after(async () => {
    for (const queue of queues) await queue.stop().catch(() => undefined);
    for (const own of databases) await own.onApplicationShutdown().catch(() => undefined);
    await db?.onApplicationShutdown();
    await database?.close();
  });

  describe('PostgresTaskStore (the McpTaskStore contract)', () => {
    it('create then get gives every field back; an unknown or expired id is unknown', async () => {
      const full = newTask({
        workspaceId: workspaceA,
        status: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Sure?' } } },
        inputResponses: { earlier: { action: 'accept' } },
        result: { content: [{ type: 'text', text: 'ok' }] },
        error: { code: -32603, message: 'Internal error', data: { why: 'x' } },
        startedAt: at(500),
        attempts: 2,
      });
      await store.create(full);
      assert.deepEqual(await store.get(full.id), full);

      const minimal = newTask({ followedAs: 'job' });
      delete minimal.statusMessage;
      const { info: _info, ...client } = minimal.client;
      minimal.client = client;
      await store.create(minimal);
      const read = await store.get(minimal.id);
      assert.deepEqual(read, minimal);
      for (const absent of ['workspaceId', 'statusMessage', 'inputRequests', 'inputResponses', 'result', 'error', 'startedAt']) {
        assert.equal(Object.hasOwn(read, absent), false, `${absent} is absent, not undefined`);
      }

      const expired = newTask({ expiresAt: new Date(Date.now() - 1000) });
      await store.create(expired);
      assert.equal(await store.get(expired.id), undefined);
      assert.equal(await store.get(randomUUID()), undefined);
      assert.equal(await store.get('not a uuid; DROP TABLE mcp_tasks'), undefined);
    });

    it('transition is a compare-and-set: from a listed status it applies the patch, else it changes nothing', async () => {
      const task = newTask({ statusMessage: 'Queued' });
      await store.create(task);
      await sleep(5);
      const started = await store.transition(task.id, ['working'], { attempts: 1, startedAt: at(), statusMessage: 'Running' });
      assert.equal(started?.attempts, 1);
      assert.equal(started?.statusMessage, 'Running');
      assert.ok(started.lastUpdatedAt.getTime() > task.lastUpdatedAt.getTime(), 'lastUpdatedAt is bumped');
      assert.deepEqual(started?.arguments, task.arguments, 'fields the patch does not name stay');

      assert.equal(await store.transition(task.id, ['input_required', 'cancelled'], { status: 'completed' }), undefined);
      assert.equal((await store.get(task.id))?.status, 'working', 'a refused transition wrote nothing');
      assert.equal(await store.transition(randomUUID(), ['working'], { status: 'completed' }), undefined);

      const cleared = await store.transition(task.id, ['working'], { statusMessage: undefined, startedAt: undefined });
      assert.equal(Object.hasOwn(cleared!, 'statusMessage'), false, 'a field named with undefined is cleared');
      assert.equal(Object.hasOwn(cleared!, 'startedAt'), false);
      assert.equal(cleared?.attempts, 1);

      const done = await store.transition(task.id, ['working', 'input_required'], {
        status: 'completed',
        result: { content: [{ type: 'text', text: 'done' }] },
      });
      assert.equal(done?.status, 'completed');
      assert.deepEqual(done?.result, { content: [{ type: 'text', text: 'done' }] });
    });

    it('transition: of two replicas racing from `working` (a completion, a cancel), exactly one wins', async () => {
      const other = new McpDatabase({ url: database.url });
      databases.push(other);
      const otherStore = new PostgresTaskStore(other);
      for (let round = 0; round < 10; round++) {
        const task = newTask();
        await store.create(task);
        const [completed, cancelled] = await Promise.all([
          store.transition(task.id, ['working'], { status: 'completed', result: { content: [] } }),
          otherStore.transition(task.id, ['working', 'input_required'], { status: 'cancelled', statusMessage: 'Cancelled' }),
        ]);
        assert.equal([completed, cancelled].filter(Boolean).length, 1, `round ${round}: one winner`);
        const final = await store.get(task.id);
        assert.equal(final?.status, (completed ?? cancelled)!.status);
        if (cancelled) assert.equal(Object.hasOwn(final, 'result'), false, 'the loser wrote nothing');
      }
    });

    it('answer takes open keys only; the task goes back to working when none stays open', async () => {
      const task = newTask({
        status: 'input_required',
        inputRequests: { a: { q: 1 }, b: { q: 2 } },
        inputResponses: { before: 'kept' },
      });
      await store.create(task);
      const partial = await store.answer(task.id, { a: 'A', stray: 'ignored' });
      assert.equal(partial?.status, 'input_required');
      assert.deepEqual(partial?.inputRequests, { b: { q: 2 } });
      assert.deepEqual(partial?.inputResponses, { before: 'kept', a: 'A' });

      const none = await store.answer(task.id, { a: 'again', stray: 'x' });
      assert.deepEqual(none?.inputResponses, { before: 'kept', a: 'A' }, 'an answer to no open key changes nothing');
      assert.equal(none?.status, 'input_required');

      const last = await store.answer(task.id, { b: { nested: true } });
      assert.equal(last?.status, 'working');
      assert.deepEqual(last?.inputRequests, {});
      assert.deepEqual(last?.inputResponses, { before: 'kept', a: 'A', b: { nested: true } });

      assert.equal((await store.answer(task.id, { b: 'late' }))?.inputResponses?.b !== 'late', true, 'a working task takes no answer');
      assert.equal(await store.answer(randomUUID(), { a: 1 }), undefined);
    });

    it('answer is atomic under concurrent partial answers (two replicas)', async () => {
      const other = new McpDatabase({ url: database.url });
      databases.push(other);
      const otherStore = new PostgresTaskStore(other);
      for (let round = 0; round < 10; round++) {
        const task = newTask({ status: 'input_required', inputRequests: { a: 1, b: 2 } });
        await store.create(task);
        await Promise.all([store.answer(task.id, { a: 'A' }), otherStore.answer(task.id, { b: 'B' })]);
        const both = await store.get(task.id);
        assert.equal(both?.status, 'working', `round ${round}: the second answer saw the first`);
        assert.deepEqual(both?.inputResponses, { a: 'A', b: 'B' });
        assert.deepEqual(both?.inputRequests, {});

        const same = newTask({ status: 'input_required', inputRequests: { a: 1, b: 2 } });
        await store.create(same);
        await Promise.all([store.answer(same.id, { a: 'first' }), otherStore.answer(same.id, { a: 'second' })]);
        const once = await store.get(same.id);
        assert.ok(['first', 'second'].includes(once?.inputResponses?.a as string));
        assert.deepEqual(once?.inputRequests, { b: 2 }, 'one key answered twice is taken once');
        assert.equal(once?.status, 'input_required');
      }
    });

    it('report writes the progress of a working task at once, outside the open transaction', async () => {
      const task = newTask();
      await store.create(task);
      await assert.rejects(
        db.transaction(async () => {
          await store.report(task.id, 'Exported 10/100');
          throw new Error('the work fails');
        }),
        /the work fails/,
      );
      assert.equal((await store.get(task.id))?.statusMessage, 'Exported 10/100', 'the progress outlived the rollback');
      await store.transition(task.id, ['working'], { status: 'completed' });
      await store.report(task.id, 'late progress');
      assert.notEqual((await store.get(task.id))?.statusMessage, 'late progress', 'a finished task takes no progress');
    });

    it('countActive counts unfinished tasks of a workspace, or of an owner; countRunning the started ones of a workspace', async () => {
      const owner = `owner-${randomUUID()}`;
      const before = {
        a: await store.countActive({ workspaceId: workspaceB, ownerKey: owner }),
        running: await store.countRunning(workspaceB),
      };
      await store.create(newTask({ workspaceId: workspaceB, ownerKey: owner }));
      await store.create(newTask({ workspaceId: workspaceB, status: 'input_required' }));
      await store.create(newTask({ workspaceId: workspaceB, startedAt: at() }));
      await store.create(newTask({ workspaceId: workspaceB, status: 'completed', startedAt: at() }));
      await store.create(newTask({ workspaceId: workspaceB, status: 'cancelled' }));
      await store.create(newTask({ workspaceId: workspaceB, startedAt: at(), expiresAt: new Date(Date.now() - 1) }));
      await store.create(newTask({ ownerKey: owner }));
      await store.create(newTask({ ownerKey: owner, status: 'failed' }));
      assert.equal(await store.countActive({ workspaceId: workspaceB, ownerKey: owner }), before.a + 3);
      assert.equal(await store.countActive({ ownerKey: owner }), 2, "no workspace: the owner's, whatever the workspace");
      assert.equal(await store.countRunning(workspaceB), before.running + 1);
    });

    it('purgeExpired deletes the tasks past their expiry, and only those', async () => {
      const expired = [newTask({ expiresAt: at(-2000) }), newTask({ expiresAt: at(-1000) })];
      const live = newTask({ expiresAt: at(60_000) });
      for (const task of [...expired, live]) await store.create(task);
      assert.ok((await store.purgeExpired(new Date())) >= 2);
      const left = await database.rows<{ id: string }>('SELECT id FROM mcp_tasks WHERE id = ANY($1)', [
        [...expired, live].map((t) => t.id),
      ]);
      assert.deepEqual(
        left.map((row) => row.id),
        [live.id],
      );
      assert.equal(await store.purgeExpired(new Date()), 0);
    });

    it('a task created in a transaction exists iff it commits; an outcome written in one goes with it', async () => {
      const rolledBack = newTask();
      await assert.rejects(
        db.transaction(async () => {
          await store.create(rolledBack);
          assert.equal((await store.get(rolledBack.id))?.id, rolledBack.id, 'visible inside its transaction');
          throw new Error('the call fails');
        }),
        /the call fails/,
      );
      assert.equal(await store.get(rolledBack.id), undefined, 'a rolled-back call left no task');

      const committed = newTask();
      await db.transaction(() => store.create(committed));
      assert.equal((await store.get(committed.id))?.id, committed.id);

      await assert.rejects(
        db.transaction(async () => {
          await store.transition(committed.id, ['working'], { status: 'completed', result: { content: [] } });
          throw new Error('the work fails');
        }),
      );
      assert.equal((await store.get(committed.id))?.status, 'working', "the outcome went with the work's rollback");
    });

    it("recent lists a workspace's tasks newest first; deleteWorkspaceTasks deletes them, and only them", async () => {
      const workspace = `gone-${randomUUID()}`;
      const tasks = [0, 1, 2].map((n) => newTask({ workspaceId: workspace, createdAt: at(n * 1000) }));
      for (const task of tasks) await store.create(task);
      const other = newTask({ workspaceId: workspaceA });
      await store.create(other);
      assert.deepEqual(
        (await store.recent(workspace, 2)).map((task) => task.id),
        [tasks[2].id, tasks[1].id],
      );
      assert.equal(await store.deleteWorkspaceTasks(workspace), 3);
      assert.equal(await store.get(tasks[0].id), undefined);
      assert.deepEqual(await store.recent(workspace), []);
      assert.equal((await store.get(other.id))?.id, other.id, "another workspace's task stays");
    });
  });

  describe('PgBossTaskQueue (the McpTaskQueue guarantees)', () => {
    it('a job enqueued in a transaction that rolls back never runs; a committed one runs once', async () => {
      const log = new RunLog();
      const { queue } = replica(queueConfig());
      await queue.start(log.runner('a'), { maxRunMs: 30_000, maxRunningPerWorkspace: 4 });
      const lost = newTask();
      const kept = newTask();
      await assert.rejects(
        db.transaction(async () => {
          await store.create(lost);
          await queue.enqueue(lost.id);
          throw new Error('the call fails');
        }),
      );
      await db.transaction(async () => {
        await store.create(kept);
        await queue.enqueue(kept.id);
      });
      await eventually(() => log.count(kept.id) === 1, 10_000, 'the committed job to run');
      await sleep(1500);
      assert.equal(log.count(kept.id), 1, 'run once');
      assert.equal(log.count(lost.id), 0, 'the rolled-back job never ran');
      assert.deepEqual(await jobsOf(database, lost.id), [], 'and never existed');
      await queue.stop();
    });

    it('`later` runs the task again after the delay, with no retry: the next job is queued and the current one completed together', async () => {
      const log = new RunLog();
      const { queue } = replica(queueConfig());
      await queue.start(
        log.runner('a', async (_taskId, nth) => (nth === 1 ? { kind: 'later', delayMs: 1500 } : { kind: 'done' })),
        { maxRunMs: 30_000, maxRunningPerWorkspace: 4 },
      );
      const task = newTask();
      await queue.enqueue(task.id);
      await eventually(() => log.count(task.id) === 2, 15_000, 'the second run');
      const [first, second] = log.runs.filter((run) => run.taskId === task.id);
      assert.ok(second.at - first.at >= 1400, `ran again ${second.at - first.at} ms later`);
      await eventually(
        async () => (await jobsOf(database, task.id)).every((job) => job.state === 'completed'),
        5000,
        'both jobs completed',
      );
      assert.deepEqual(await jobsOf(database, task.id), [
        { state: 'completed', retry_count: 0 },
        { state: 'completed', retry_count: 0 },
      ]);
      await queue.stop();
    });

    it('a delayed enqueue does not run before its delay', async () => {
      const log = new RunLog();
      const { queue } = replica(queueConfig());
      await queue.start(log.runner('a'), { maxRunMs: 30_000, maxRunningPerWorkspace: 4 });
      const task = newTask();
      const sent = Date.now();
      await queue.enqueue(task.id, { delayMs: 2000 });
      await eventually(() => log.count(task.id) === 1, 10_000, 'the delayed run');
      assert.ok(log.runs[0].at - sent >= 1900, `ran ${log.runs[0].at - sent} ms after it was queued`);
      await queue.stop();
    });

    it('a throw of the worker (the database unreachable) fails the job, and it is retried', async () => {
      const log = new RunLog();
      const { queue } = replica(queueConfig());
      await queue.start(
        log.runner('a', async (_taskId, nth) => {
          if (nth === 1) throw new Error('database unreachable');
          return { kind: 'done' };
        }),
        { maxRunMs: 30_000, maxRunningPerWorkspace: 4 },
      );
      const task = newTask();
      await queue.enqueue(task.id);
      await eventually(() => log.count(task.id) === 2, 15_000, 'the retry');
      await queue.stop();
    });

    it('a replica with workers: 0 only enqueues: another replica runs its jobs', async () => {
      const log = new RunLog();
      const web = replica(queueConfig({ workers: 0 }));
      const worker = replica(queueConfig());
      const neverCalled = log.runner('web');
      await web.queue.start(neverCalled, { maxRunMs: 30_000, maxRunningPerWorkspace: 4 });
      const task = newTask();
      await web.db.transaction(() => web.queue.enqueue(task.id));
      await sleep(1200);
      assert.equal(log.count(task.id), 0, 'nothing runs it without a worker');
      await worker.queue.start(log.runner('worker'), { maxRunMs: 30_000, maxRunningPerWorkspace: 4 });
      await eventually(() => log.count(task.id) === 1, 10_000, 'the worker replica to run it');
      assert.deepEqual(
        log.runs.map((run) => run.by),
        ['worker'],
      );
      await web.queue.stop();
      await worker.queue.stop();
    });

    it('two replicas on one database never run the same job at once, and run each once', async () => {
      const log = new RunLog();
      const a = replica(queueConfig({ workers: 3 }));
      const b = replica(queueConfig({ workers: 3 }));
      const slow = async () => {
        await sleep(20 + Math.random() * 60);
        return { kind: 'done' } as const;
      };
      await a.queue.start(log.runner('a', slow), { maxRunMs: 30_000, maxRunningPerWorkspace: 4 });
      await b.queue.start(log.runner('b', slow), { maxRunMs: 30_000, maxRunningPerWorkspace: 4 });
      const tasks = Array.from({ length: 30 }, () => newTask());
      for (const [i, task] of tasks.entries()) await (i % 2 ? a : b).queue.enqueue(task.id);
      await eventually(() => tasks.every((task) => log.count(task.id) >= 1), 30_000, 'every job to run');
      await sleep(1500);
      assert.equal(log.overlaps, 0, 'no job ran twice at once');
      for (const task of tasks) assert.equal(log.count(task.id), 1, `task ${task.id} ran once`);
      await a.queue.stop();
      await b.queue.stop();
    });

    it('a run that outlives its limit in a live replica is failed by the queue and handed to another worker', async () => {
      const log = new RunLog();
      const { queue } = replica(queueConfig({ workers: 2 }));
      await queue.start(
        log.runner('a', async (_taskId, nth) => (nth === 1 ? new Promise(() => undefined) : { kind: 'done' })),
        { maxRunMs: 1000, maxRunningPerWorkspace: 4 },
      );
      const task = newTask();
      await queue.enqueue(task.id);
      await eventually(() => log.count(task.id) === 2, 15_000, 'the job to be handed over');
      const [first, second] = log.runs.filter((run) => run.taskId === task.id);
      assert.ok(second.at - first.at >= 950, `handed over ${second.at - first.at} ms after the first run started`);
      await queue.stop();
    });

    it('a job whose replica is killed (kill -9) mid-run is run by another replica once its heartbeat stops: within 30 s with maxRunMs at 10 minutes', async () => {
      const maxRunMs = 600_000;
      const child: ChildProcess = spawn(process.execPath, [FIXTURE], {
        env: { ...process.env, DATABASE_URL: database.url, MAX_RUN_MS: String(maxRunMs) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        await eventually(() => output.includes('ready'), 60_000, `the replica to start (output: ${output})`);
        const task = newTask();
        const { queue: web } = replica(queueConfig({ workers: 0 }));
        await web.enqueue(task.id);
        await eventually(() => output.includes(`running ${task.id}`), 10_000, 'the replica to take the job');
        const taken = Date.now();
        child.kill('SIGKILL');
        await exited;

        const log = new RunLog();
        const { queue: survivor } = replica(queueConfig({ workers: 1 }));
        await survivor.start(log.runner('survivor'), { maxRunMs, maxRunningPerWorkspace: 4 });
        await eventually(() => log.count(task.id) === 1, 40_000, 'the survivor to run the job');
        const after = log.runs[0].at - taken;
        // The heartbeat (10 s, refreshed every 5 s) went stale, then a supervision pass (1 s here), the retry delay and a poll.
        assert.ok(after >= 5000, `handed over ${after} ms after the kill: not while its heartbeat was fresh`);
        assert.ok(after <= 30_000, `handed over ${after} ms after the kill`);
        await eventually(async () => (await jobsOf(database, task.id))[0]?.state === 'completed', 5000, 'the job to complete');
        assert.deepEqual(await jobsOf(database, task.id), [{ state: 'completed', retry_count: 1 }], 'one crash, one retry');
        await survivor.stop();
      } finally {
        child.kill('SIGKILL');
      }
    });
  });
});
