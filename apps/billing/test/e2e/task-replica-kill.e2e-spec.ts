import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { TASKS_EXTENSION } from '@nest-mcp/core/extensions';
import { callStateless, envelopeOf } from '@nest-mcp/core/testing';
import { STATEMENT_EXPORT_TOOL } from '../../src/billing/statements/statements.controller.js';
import { mintToken, needsRealPostgres, startAppProcess, type AppProcess } from '../support/app-process.js';
import { createTestDatabase, queryRows, withClient, type TestDatabase } from '../support/test-database.js';

/**
 * kill -9 of the replica running a task (docs/tasks.md, "Surviving a replica"): two real billing
 * server processes on one PostgreSQL. Replica A accepts a `billing_statement_export` task from a
 * 2026-07-28 client that declared the tasks extension, and runs it; A gets SIGKILL once `tasks/get`
 * shows the export's progress. Meanwhile the test holds a SHARE lock on `attachments`, so A's run,
 * however fast it reads, cannot write (let alone commit) the file before it dies: the kill always
 * lands mid-run. Replica B starts only then, so no worker but A's can have claimed the job (a
 * replica boots in longer than the export runs: B started during the export would race it). B's
 * supervisor takes the job back once A's heartbeat stopped (within 30 s of the kill, with
 * `maxRunMs` at its ten minutes), and B runs the task again, to completion, `tasks/get` saying it
 * runs again: the attempt A started counts (attempts = 2, within maxAttempts 2).
 * The work's effects committed once: one stored CSV, one `success` audit row for the work beside
 * the `queued` row of the accepted call, the task `completed`, and `tasks/get` on B names the file.
 */

const TOOL = STATEMENT_EXPORT_TOOL;
/** A period no demo data falls in: the export holds exactly the rows seeded here. */
const PERIOD = { from: '2001-01-01', to: '2001-12-31' };
/** 45,000 rows (~90 pages): the export reports progress a few times. */
const SEEDED = { customers: 40, invoices: 30_000 };
const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };
const CLIENT = { name: `replica-kill-${process.pid}`, version: '2.0.0' };
/**
 * The layer's `tasks.maxRunMs` on both replicas, its default: ten minutes. A dead worker's job must
 * not wait for it: its heartbeat (TASK_HEARTBEAT_SECONDS, 10 s by default) stops, and a supervision
 * pass hands it over.
 */
const MAX_RUN_MS = 600_000;
/** From the kill to B's run of the task, at most (heartbeat 10 s, refreshed every 5 s, B's boot, a pass, a retry delay, a poll). */
const HANDOVER_LIMIT_MS = 30_000;
const SUPERVISE_SECONDS = 1;
const POLL_MS = 500;
const PROGRESS = /^Exporting \((\d+)\/(\d+)\)$/;

interface TaskRow {
  status: string;
  attempts: number;
  status_message: string | null;
  started_at: Date | null;
}

describe(
  'kill -9 of the replica running a task: another replica completes it, its effects committed once',
  { skip: needsRealPostgres(), timeout: 180_000 },
  () => {
    let database: TestDatabase;
    let a: AppProcess | undefined;
    let b: AppProcess | undefined;
    let token: string;
    let expected: { invoices: number; payments: number };
    /** Ends the test's lock on attachments (see the test), if it holds one. */
    let closeGate: (() => Promise<void>) | undefined;
    const env = {
      MCP_STATE_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_DISABLED: 'true',
      MCP_TASK_MAX_RUN_MS: String(MAX_RUN_MS),
      TASK_SUPERVISE_SECONDS: String(SUPERVISE_SECONDS),
      TASK_POLL_MS: String(POLL_MS),
    };

    before(async () => {
      database = await createTestDatabase();
      // A alone: whatever it accepts, only its own workers can claim.
      a = await startAppProcess({ databaseUrl: database.url, name: 'replica-A', env });
      expected = await seed(database.url);
      // A personal token (the demo token of A is revoked when B boots and seeds the demo again).
      token = await mintToken(database.url);
    });
    after(async () => {
      await closeGate?.();
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.close();
    });

    const taskGet = async (replica: AppProcess, taskId: string) => {
      const answer = await callStateless(
        replica.mcpUrl,
        'tasks/get',
        { taskId },
        {
          token,
          capabilities: TASKS,
          clientInfo: CLIENT,
          headers: { 'mcp-name': taskId },
        },
      );
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.error, undefined, answer.text);
      return answer.body.result;
    };
    const taskRow = async (taskId: string) =>
      (
        await queryRows<TaskRow>(database.url, 'SELECT status, attempts, status_message, started_at FROM mcp_tasks WHERE id = $1', [taskId])
      )[0];

    it(
      'A starts the export and is killed mid-run; B takes the job over once its heartbeat stops (maxRunMs at 10 minutes) and completes it once',
      { timeout: 150_000 },
      async (t) => {
        // The statement's first write (the INSERT of its pending file into attachments) waits while the test holds
        // this lock: A's run cannot store anything before it is killed, however fast its export reads.
        const writeGate = new pg.Client({ connectionString: database.url });
        await writeGate.connect();
        closeGate = async () => {
          closeGate = undefined;
          await writeGate.query('COMMIT').catch(() => undefined);
          await writeGate.end();
        };
        await writeGate.query('BEGIN');
        await writeGate.query('LOCK TABLE attachments IN SHARE MODE');

        const startedAt = Date.now();
        // 1. The task, accepted by A.
        const created = await callStateless(
          a!.mcpUrl,
          'tools/call',
          { name: TOOL, arguments: PERIOD },
          { token, capabilities: TASKS, clientInfo: CLIENT },
        );
        assert.equal(created.status, 200, created.text);
        assert.equal(created.body.error, undefined, created.text);
        assert.equal(created.body.result.resultType, 'task', created.text);
        assert.equal(created.body.result.status, 'working');
        const taskId: string = created.body.result.taskId;
        assert.match(taskId, /^[0-9a-f-]{36}$/);

        // 2. A runs it: tasks/get shows the export's progress (rows read out of the total), or the run has read
        //    every row and waits to write the file. Either way the run is under way and nothing of it is committed.
        let progressOnA: { done: number; total: number } | undefined;
        let waitingToWrite = false;
        for (const deadline = Date.now() + 30_000; ; await sleep(25)) {
          assert.ok(Date.now() < deadline, 'the run did not report progress on A within 30 s');
          const task = await taskGet(a!, taskId);
          assert.equal(task.status, 'working', `the export ended before it could be cut: ${JSON.stringify(task).slice(0, 500)}`);
          const match = PROGRESS.exec(task.statusMessage ?? '');
          if (match) progressOnA = { done: Number(match[1]), total: Number(match[2]) };
          waitingToWrite = !!match && (await blockedWrites(database.url)) > 0;
          if (progressOnA && (progressOnA.done > 0 || waitingToWrite)) break;
        }
        const firstRun = await taskRow(taskId);
        assert.equal(firstRun.attempts, 1, 'A started the first attempt');
        assert.ok(firstRun.started_at, 'the run has started');
        assert.equal(progressOnA.total, expected.invoices + expected.payments);
        const runningAt = Date.now();

        // 3. kill -9 of A, mid-run: nothing of its run committed, and its job stays claimed by a dead worker.
        const progressAtKill = `${(await taskRow(taskId)).status_message}${waitingToWrite ? ', waiting to write the file' : ''}`;
        a!.kill('SIGKILL');
        const killedAt = Date.now();
        assert.equal((await a!.exited).signal, 'SIGKILL');
        // A's connections close with it: its open transaction (if the write had begun) is rolled back, never committed.
        await closeGate();
        const cut = await taskRow(taskId);
        assert.deepEqual([cut.status, cut.attempts], ['working', 1], 'the task is left working, one attempt started');
        // Its first write, the pending file's row, waited for the test's lock; released, it may still commit (a blocked
        // statement notices its client is gone only after it ran): a pending file no read sees, which the app's
        // cleanup deletes once it is older than the run limit. Nothing of it is a stored statement.
        assert.equal(await attachmentCount(database.url), 0, 'the killed run stored nothing');

        // 4. B starts (only now: no worker but A's could have claimed the job).
        b = await startAppProcess({ databaseUrl: database.url, name: 'replica-B', env });
        const bReadyAt = Date.now();
        const bootOfB = bReadyAt - killedAt;

        // 5. B takes the job over once A's heartbeat stopped, and runs the task again, saying so to the client.
        let secondRunAt: number | undefined;
        let done: any;
        const resumedMessages = new Set<string>();
        for (const deadline = Date.now() + HANDOVER_LIMIT_MS + 60_000; ; await sleep(100)) {
          assert.ok(Date.now() < deadline, `B did not complete the task: ${JSON.stringify(await taskRow(taskId)).slice(0, 500)}`);
          const row = await taskRow(taskId);
          if (secondRunAt === undefined && row.attempts >= 2) secondRunAt = Date.now();
          if (row.status === 'working' && row.attempts >= 2) resumedMessages.add((await taskGet(b, taskId)).statusMessage);
          if (row.status !== 'working') {
            done = await taskGet(b, taskId);
            break;
          }
        }
        const finishedAt = Date.now();

        // The task: completed on the second attempt, and B answers it with the stored file.
        const finalRow = await taskRow(taskId);
        assert.equal(finalRow.status, 'completed', JSON.stringify(finalRow).slice(0, 1000));
        assert.equal(finalRow.attempts, 2, 'one attempt on A (killed), one on B');
        assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 1000));
        assert.equal(done.result.isError, undefined, JSON.stringify(done.result).slice(0, 1000));
        const answer = envelopeOf({ result: done.result });
        assert.equal(answer.ok, true);
        assert.equal(answer.data.invoice_rows, expected.invoices);
        assert.equal(answer.data.payment_rows, expected.payments);

        // The second run started within the bound after the kill, whatever maxRunMs (ten minutes) says, and while
        // it ran, tasks/get said it is running again and why.
        const handover = finalRow.started_at!.getTime() - firstRun.started_at.getTime();
        assert.ok(
          secondRunAt !== undefined && secondRunAt - killedAt <= HANDOVER_LIMIT_MS,
          `B started the task ${secondRunAt! - killedAt} ms after the kill (limit ${HANDOVER_LIMIT_MS} ms)`,
        );
        assert.ok(
          [...resumedMessages].some((message) => /attempt 2: the worker of the previous run stopped before it finished/.test(message)),
          `tasks/get said: ${[...resumedMessages].join(' | ')}`,
        );

        // Effects committed once: one file, the one the answer names, whole.
        const attachments = await queryRows<{
          id: string;
          filename: string;
          size_bytes: number;
          sha256: string;
          content: Buffer;
          created_via: string;
          status: string;
        }>(
          database.url,
          // The bytes: the file's parts joined in order.
          `SELECT a.id, a.filename, a.size_bytes, a.sha256, a.created_via::text AS created_via, a.status::text AS status,
                  (SELECT string_agg(p.bytes, ''::bytea ORDER BY p.seq) FROM attachment_parts p WHERE p.attachment_id = a.id) AS content
           FROM attachments a WHERE a.filename = $1 AND a.status = 'ready'`,
          [`statement-demo-${PERIOD.from}-${PERIOD.to}.csv`],
        );
        assert.equal(attachments.length, 1, 'exactly one stored statement');
        const [file] = attachments;
        assert.equal(file.status, 'ready');
        assert.equal(answer.data.attachment_id, file.id);
        assert.equal(answer.data.size_bytes, file.size_bytes);
        assert.equal(file.created_via, 'mcp');
        assert.equal(createHash('sha256').update(file.content).digest('hex'), file.sha256);
        assert.equal(file.sha256, answer.data.sha256);
        const lines = file.content.toString('utf8').split('\r\n').filter(Boolean);
        assert.equal(lines.length, 1 + expected.invoices + expected.payments, 'a header and one row per invoice and payment');
        assert.equal(await attachmentCount(database.url), 1);

        // Audit: the accepted call (queued) and the work (success), once each; the killed run left none.
        const audits = await queryRows<{ method: string; outcome: string; channel: string }>(
          database.url,
          `SELECT method, outcome, channel::text AS channel FROM mcp_audit_events WHERE target = $1 AND client_name = $2 ORDER BY occurred_at`,
          [TOOL, CLIENT.name],
        );
        assert.deepEqual(
          audits.map((row) => [row.channel, row.method, row.outcome]),
          [
            ['mcp', 'tools/call', 'queued'],
            ['mcp', 'tools/call', 'success'],
          ],
        );

        // The queue: one job for the task, delivered twice (A's heartbeat stopped, B's completed).
        const jobs = await queryRows<{ state: string; retry_count: number }>(
          database.url,
          // @nest-mcp/prisma's default schema and queue.
          `SELECT state::text AS state, retry_count FROM pgboss.job WHERE name = 'mcp-tasks' AND data->>'taskId' = $1`,
          [taskId],
        );
        assert.deepEqual(jobs, [{ state: 'completed', retry_count: 1 }]);

        t.diagnostic(
          `replica kill figures: ${expected.invoices + expected.payments} rows; A reported ${progressOnA.done}/${progressOnA.total} ` +
            `${runningAt - startedAt} ms after the call; A killed at "${progressAtKill}"; B booted in ${bootOfB} ms after the kill; ` +
            `handover: B started the task ${handover} ms after A did (heartbeat 10 s, supervision every ${SUPERVISE_SECONDS} s), ` +
            `${secondRunAt !== undefined ? secondRunAt - killedAt : '?'} ms after the kill; B's run took about ` +
            `${finishedAt - (secondRunAt ?? killedAt)} ms; total ${finishedAt - startedAt} ms`,
        );
      },
    );
  },
);

/** Writes to attachments waiting for a lock (A's statement, held back by the test's lock). */
async function blockedWrites(url: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'attachments'::regclass AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return row.n;
}

/** Stored statements (ready files: a pending one is a run's unfinished write, seen by no read). */
async function attachmentCount(url: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM attachments WHERE filename LIKE 'statement-%' AND status = 'ready'`,
  );
  return row.n;
}

/**
 * Customers, invoices issued in {@link PERIOD} and a payment for every other invoice, in the demo
 * workspace, in bulk; answers what the statement of the period holds.
 */
async function seed(url: string): Promise<{ invoices: number; payments: number }> {
  return withClient(url, async (client) => {
    const workspace = (await client.query<{ id: string }>(`SELECT id FROM workspaces WHERE slug = 'demo'`)).rows[0].id;
    await client.query(
      `INSERT INTO customers (id, workspace_id, name, email, created_via, updated_via, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'Kill Customer ' || g, 'kill-' || g || '@customers.test', 'system', 'system', now()
       FROM generate_series(1, $2::int) g`,
      [workspace, SEEDED.customers],
    );
    await client.query(
      `WITH c AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS slot FROM customers WHERE workspace_id = $1::uuid AND email LIKE 'kill-%')
       INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor,
                             created_via, updated_via, updated_at)
       SELECT gen_random_uuid(), $1::uuid, c.id, 'KILL-' || lpad(g::text, 6, '0'),
              (CASE WHEN g % 2 = 0 THEN 'paid' ELSE 'sent' END)::"InvoiceStatus", 'MXN',
              date '2001-01-01' + (g % 300), date '2001-01-01' + (g % 300) + 30, 1000 + g, CASE WHEN g % 2 = 0 THEN 1000 + g ELSE 0 END,
              'system', 'system', now()
       FROM generate_series(1, $2::int) g JOIN c ON c.slot = g % $3::int`,
      [workspace, SEEDED.invoices, SEEDED.customers],
    );
    await client.query(
      `INSERT INTO payments (id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference, refunded_minor,
                             created_via, updated_via, updated_at)
       SELECT gen_random_uuid(), workspace_id, id, paid_minor, currency, 'transfer', issue_date + interval '9 days 13 hours',
              'TRK' || paid_minor, 0, 'system', 'system', now()
       FROM invoices WHERE workspace_id = $1::uuid AND number LIKE 'KILL-%' AND paid_minor > 0`,
      [workspace],
    );
    const counts = await client.query<{ invoices: number; payments: number }>(
      `SELECT (SELECT count(*)::int FROM invoices WHERE workspace_id = $1::uuid AND issue_date BETWEEN $2::date AND $3::date) AS invoices,
              (SELECT count(*)::int FROM payments WHERE workspace_id = $1::uuid AND paid_at >= $2::date AND paid_at < $3::date + 1) AS payments`,
      [workspace, PERIOD.from, PERIOD.to],
    );
    return counts.rows[0];
  });
}
