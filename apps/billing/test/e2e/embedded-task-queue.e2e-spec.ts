import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { McpTask } from '@nest-mcp/core/extensions';
import { PgBossTaskQueue, PostgresTaskStore } from '@nest-mcp/prisma';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { runMigrations } from '../../src/database/migrations.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { prismaOn, queryRows } from '../support/test-database.js';

/**
 * @nest-mcp/prisma's task queue on the app's embedded PostgreSQL (PGlite, what `npm start` runs
 * with no DATABASE_URL), where one backend serves every connection: pg-boss installs there, a job
 * enqueued in the open transaction goes with it, and progress reported from inside the work's
 * transaction does not wait for itself. The queue's other guarantees are tested in the package.
 */
describe('PgBossTaskQueue on the embedded PostgreSQL (PGlite)', { timeout: 120_000 }, () => {
  let embedded: EmbeddedPostgres;
  let prisma: PrismaService;
  let queue: PgBossTaskQueue;
  let store: PostgresTaskStore;

  before(async () => {
    const snapshot = process.env.TEST_PGLITE_SNAPSHOT;
    embedded = await EmbeddedPostgres.start(snapshot ? { loadDataDir: await openAsBlob(snapshot) } : {});
    if (!snapshot) await runMigrations(embedded.url);
    prisma = prismaOn(embedded.url);
    queue = new PgBossTaskQueue(prisma, { workers: 2, pollIntervalMs: 500, superviseIntervalSeconds: 1, expiryGraceMs: 0 });
    store = new PostgresTaskStore(prisma);
  });

  after(async () => {
    await queue?.stop();
    await prisma?.onApplicationShutdown();
    await embedded?.stop();
  });

  it('installs pg-boss, enqueues in the open transaction (rolled back: never runs), re-queues `later`, reports progress from inside a transaction', async () => {
    const runs = new Map<string, number>();
    let progressReported = false;
    await queue.start(
      async (taskId) => {
        const nth = (runs.get(taskId) ?? 0) + 1;
        runs.set(taskId, nth);
        if (nth > 1) return { kind: 'done' };
        // The work's transaction, with its progress reported meanwhile (it must not wait for itself).
        await prisma.transaction(async () => {
          await store.report(taskId, 'half way');
          progressReported = true;
          await store.transition(taskId, ['working'], { attempts: 1 });
        });
        return { kind: 'later', delayMs: 600 };
      },
      { maxRunMs: 30_000, maxRunningPerWorkspace: 4 },
    );
    const lost = newTask();
    await assert.rejects(
      prisma.transaction(async () => {
        await store.create(lost);
        await queue.enqueue(lost.id);
        throw new Error('the call fails');
      }),
    );
    const kept = newTask();
    await prisma.transaction(async () => {
      await store.create(kept);
      await queue.enqueue(kept.id);
    });
    for (const until = Date.now() + 20_000; runs.get(kept.id) !== 2; await sleep(50))
      if (Date.now() > until) assert.fail('timed out waiting for the run and its `later` re-run');
    assert.equal(progressReported, true);
    assert.equal((await store.get(kept.id))?.attempts, 1);
    await sleep(1000);
    assert.equal(runs.get(lost.id), undefined, 'the rolled-back job never ran');
    assert.equal(runs.get(kept.id), 2);
    const { schema, queue: name } = queue.location;
    assert.deepEqual(
      await queryRows(embedded.url, `SELECT id FROM ${schema}.job WHERE name = $1 AND data->>'taskId' = $2`, [name, lost.id]),
      [],
      'and never existed',
    );
  });
});

function newTask(): McpTask {
  const now = new Date();
  return {
    id: randomUUID(),
    ownerKey: `owner-${randomUUID()}`,
    tool: 'billing_statement_export',
    arguments: {},
    caller: { v: 1 },
    client: { protocolVersion: '2025-11-25', capabilities: {} },
    followedAs: 'task',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    attempts: 0,
  };
}
