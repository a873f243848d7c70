/**
 * billing_statement_export at scale: a million rows, exported as an MCP task by the real
 * application in a process of its own (plain Node, as `npm start` runs it: the test runner's own
 * async hooks would keep every promise alive a GC longer and blur the figure), on a database of
 * the test's own seeded with SQL (generate_series). The stored file is checked part by part against
 * the database (row count, SHA-256), never loaded whole. Prints the time and the server's RSS growth.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Envelope } from '@nest-mcp/core/testing';
import type pg from 'pg';
import { STATEMENT_COLUMNS } from '../../src/billing/statements/statement-csv.js';
import { needsRealPostgres, startAppProcess, type AppProcess } from '../support/app-process.js';
import { TasksClient } from '../support/tasks-client.js';
import { createTestDatabase, queryRows, withClient, type TestDatabase } from '../support/test-database.js';

const TOOL = 'billing_statement_export';
/** A year the demo data (the last three years, seeded at boot) does not reach: only the rows seeded here. */
const PERIOD = { from: '2020-01-01', to: '2020-12-31' };
const SEEDED = { customers: 200, invoices: 600_000, payments: 400_000 };
/** How much the server's resident memory may grow while it exports. */
const MAX_RSS_GROWTH_BYTES = 150 * 1024 * 1024;

describe(
  'billing_statement_export of a million rows (real database, server in its own process)',
  { skip: needsRealPostgres(), timeout: 240_000 },
  () => {
    let database: TestDatabase;
    let app: AppProcess;

    before(async () => {
      database = await createTestDatabase();
      app = await startAppProcess({ databaseUrl: database.url, name: 'million' });
      const started = performance.now();
      await withClient(database.url, seed);
      console.log(`seeded ${SEEDED.invoices + SEEDED.payments} rows in ${Math.round(performance.now() - started)} ms`);
    });
    after(async () => {
      await app?.stop();
      await database?.close();
    });

    it('completes as a task, writing the file in parts as it reads, with bounded memory; the stored rows and SHA-256 match', async () => {
      const client = new TasksClient(app.mcpUrl, app.token, 'statement-million-rows');
      await client.start();
      try {
        const memory = new MemoryWatch(app.pid);
        const started = performance.now();
        const created = await client.request('tools/call', { name: TOOL, arguments: PERIOD });
        assert.equal(created.result?.resultType, 'task', JSON.stringify(created));

        // While it runs, its parts are already stored (a pending file no read sees) and its progress moves.
        const progress = new Set<string>();
        let pendingParts = 0;
        const done = await client.poll(
          created.result.taskId,
          (task) => {
            if (task.statusMessage) progress.add(task.statusMessage);
            return task.status !== 'working';
          },
          200_000,
          async () => (pendingParts = Math.max(pendingParts, await partsOfPendingFiles(database.url))),
        );
        const elapsedMs = Math.round(performance.now() - started);
        const { baseline, peak } = memory.stop();
        assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 500));
        const answer = JSON.parse(done.result.content[0].text) as Envelope;
        assert.equal(answer.ok, true, JSON.stringify(answer.errors));
        const data = answer.data;
        console.log(
          `exported ${data.rows} rows (${mib(data.size_bytes)}, ${data.parts} parts) in ${elapsedMs} ms; ` +
            `server RSS ${mib(baseline)} before, ${mib(peak)} at its peak: growth ${mib(peak - baseline)}`,
        );

        assert.equal(data.invoice_rows, SEEDED.invoices);
        assert.equal(data.payment_rows, SEEDED.payments);
        assert.equal(data.rows, SEEDED.invoices + SEEDED.payments);
        assert.ok(pendingParts > 1, `parts were stored while it ran (${pendingParts} seen)`);
        assert.ok([...progress].filter((message) => /^Exporting \(\d+\/\d+\)$/.test(message)).length > 3, [...progress].join(', '));
        assert.ok(peak - baseline < MAX_RSS_GROWTH_BYTES, `RSS grew by ${mib(peak - baseline)}, more than ${mib(MAX_RSS_GROWTH_BYTES)}`);

        // The stored file, a part at a time: its SHA-256, its size and its lines.
        const file = await readStored(database.url, data.attachment_id, data.parts);
        assert.equal(file.sha256, data.sha256);
        assert.equal(file.size, data.size_bytes);
        assert.equal(file.lines, data.rows + 1, 'a header and a line per row');
        assert.equal(file.header, STATEMENT_COLUMNS.join(','));
        // One resource_link per part, in order, after the envelope.
        assert.equal(done.result.content.length, 1 + data.parts);
        assert.equal(done.result.content.at(-1).uri, `billing://attachments/${data.attachment_id}/parts/${data.parts}`);
      } finally {
        await client.close();
      }
    });
  },
);

/**
 * The resident memory of a process while the test runs: its RSS before, and its peak after — the
 * kernel's own high-water mark (VmHWM, reset here first through clear_refs) where it can, else the
 * highest of samples taken every 20 ms. From /proc on Linux, `ps` elsewhere.
 */
class MemoryWatch {
  readonly baseline: number;
  private peak: number;
  private readonly timer: NodeJS.Timeout;
  private readonly hwm: boolean;

  constructor(private readonly pid: number) {
    this.baseline = rssOf(pid);
    this.peak = this.baseline;
    this.hwm = resetPeak(pid);
    this.timer = setInterval(() => (this.peak = Math.max(this.peak, rssOf(pid))), 20);
  }

  stop(): { baseline: number; peak: number } {
    clearInterval(this.timer);
    const peak = this.hwm ? Math.max(this.peak, statusKb(this.pid, 'VmHWM') * 1024) : this.peak;
    return { baseline: this.baseline, peak };
  }
}

function rssOf(pid: number): number {
  if (existsSync(`/proc/${pid}/status`)) return statusKb(pid, 'VmRSS') * 1024;
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) * 1024
  );
}

function statusKb(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** Resets the kernel's peak RSS of `pid` (Linux: "5" to clear_refs), so that VmHWM is the peak from now on. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return statusKb(pid, 'VmHWM') > 0;
  } catch {
    return false;
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Parts stored so far for files still pending (an export in progress). */
async function partsOfPendingFiles(url: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM attachment_parts p JOIN attachments a ON a.id = p.attachment_id WHERE a.status = 'pending'`,
  );
  return row.n;
}

/** The stored parts, hashed and counted one at a time (never the whole file in memory). */
async function readStored(url: string, id: string, parts: number) {
  return withClient(url, async (client) => {
    const hash = createHash('sha256');
    let size = 0;
    let lines = 0;
    let header = '';
    for (let seq = 1; seq <= parts; seq++) {
      const { rows } = await client.query<{ bytes: Buffer }>('SELECT bytes FROM attachment_parts WHERE attachment_id = $1 AND seq = $2', [
        id,
        seq,
      ]);
      const bytes = rows[0].bytes;
      if (seq === 1) header = bytes.subarray(0, bytes.indexOf('\r\n')).toString();
      hash.update(bytes);
      size += bytes.length;
      for (let at = bytes.indexOf('\r\n'); at !== -1; at = bytes.indexOf('\r\n', at + 2)) lines++;
    }
    return { sha256: hash.digest('hex'), size, lines, header };
  });
}

/**
 * A year of billing in the demo workspace by INSERT … SELECT over generate_series, on one
 * connection: customers (some names to quote and guard), invoices spread over the year, and a
 * payment for each of the first `payments` invoices. The scratch database's foreign-key triggers
 * are off for the session (session_replication_role = replica; every reference is right by
 * construction), and the invoice and payment indexes are built once after the rows rather than
 * row by row: seconds instead of a minute.
 */
async function seed(client: pg.Client): Promise<void> {
  const [{ id: workspaceId }] = (await client.query<{ id: string }>(`SELECT id FROM workspaces WHERE slug = 'demo'`)).rows;
  const indexes = (
    await client.query<{ definition: string; name: string }>(
      `SELECT indexdef AS definition, indexname AS name FROM pg_indexes
       WHERE tablename IN ('invoices', 'payments') AND indexname NOT LIKE '%_pkey'`,
    )
  ).rows;
  await client.query('SET session_replication_role = replica');
  for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
  await client.query(
    `INSERT INTO customers (id, workspace_id, name, email, created_via, updated_via, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'Customer ' || g || CASE WHEN g % 10 = 0 THEN ', "Quoted"; =1' ELSE '' END,
            'million-' || g || '@customers.test', 'system', 'system', now()
     FROM generate_series(1, $2::int) g`,
    [workspaceId, SEEDED.customers],
  );
  await client.query(
    `WITH c AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS slot FROM customers WHERE workspace_id = $1::uuid AND email LIKE 'million-%')
     INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor,
                           created_via, updated_via, updated_at)
     SELECT gen_random_uuid(), $1::uuid, c.id, 'M-' || lpad(g::text, 7, '0'),
            (CASE WHEN g <= $3::int THEN 'paid' ELSE 'sent' END)::"InvoiceStatus", 'MXN',
            date '2020-01-01' + (g % 366), date '2020-01-01' + (g % 366) + 30, 1000 + g % 100000,
            CASE WHEN g <= $3::int THEN 1000 + g % 100000 ELSE 0 END, 'system', 'system', now()
     FROM generate_series(1, $2::int) g JOIN c ON c.slot = g % $4::int`,
    [workspaceId, SEEDED.invoices, SEEDED.payments, SEEDED.customers],
  );
  // Paid the day of issue: within the year.
  await client.query(
    `INSERT INTO payments (id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference, refunded_minor,
                           created_via, updated_via, updated_at)
     SELECT gen_random_uuid(), workspace_id, id, paid_minor, currency, 'transfer', issue_date + interval '13 hours', 'TRK' || number, 0,
            'system', 'system', now()
     FROM invoices WHERE workspace_id = $1::uuid AND number LIKE 'M-%' AND paid_minor > 0`,
    [workspaceId],
  );
  await client.query('SET session_replication_role = DEFAULT');
  for (const index of indexes) await client.query(index.definition);
  await client.query('ANALYZE customers, invoices, payments');
}
