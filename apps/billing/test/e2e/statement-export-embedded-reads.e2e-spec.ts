/**
 * billing_statement_export on the embedded database (PGlite, what `npm start` runs without
 * DATABASE_URL): one backend, in the server's own process, serves every connection one unit of
 * work at a time, and each query holds the event loop while it runs. The export reads its pages
 * and writes its parts outside any transaction, in small steps, resting between them, so other
 * requests keep being served while it runs: the p99 of REST reads during a large export stays
 * within twice the idle p99. Prints both. The server runs in a process of its own
 * (test/fixtures/embedded-app.fixture.ts), as in production: not under the test runner.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { bearer } from '../support/billing-app.js';
import { TasksClient } from '../support/tasks-client.js';
import { queryRows, withClient } from '../support/test-database.js';

const TOOL = 'billing_statement_export';
const PERIOD = { from: '2025-01-01', to: '2025-12-31' };
/** Enough rows for the export to outlast the reads made during it. */
const SEEDED = { customers: 50, invoices: 100_000 };
/** Sequential reads per measure: the p99 of 300 is about their third slowest, not one stray pause. */
const READS = 300;
const FIXTURE = fileURLToPath(new URL('../fixtures/embedded-app.fixture.ts', import.meta.url));

interface EmbeddedApp {
  baseUrl: string;
  mcpUrl: string;
  databaseUrl: string;
  token: string;
}

describe('billing_statement_export on the embedded database: reads keep flowing', { timeout: 240_000 }, () => {
  let child: ChildProcess;
  let app: EmbeddedApp;
  let invoicePath: string;

  before(async () => {
    child = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (const started = Date.now(); !/^\{.*\}$/m.test(output); await once(child.stdout!, 'data')) {
      assert.ok(Date.now() - started < 60_000, `the embedded app did not start: ${output}`);
    }
    app = JSON.parse(/^\{.*\}$/m.exec(output)![0]) as EmbeddedApp;
    await withClient(app.databaseUrl, seed);
    const [invoice] = await queryRows<{ id: string }>(app.databaseUrl, 'SELECT id FROM invoices ORDER BY number LIMIT 1');
    invoicePath = `/v1/invoices/${invoice.id}`;
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  /** One REST read (an invoice: the token's check, the workspace's, the invoice with its lines and payments): its latency. */
  async function read(): Promise<number> {
    const started = performance.now();
    const response = await fetch(`${app.baseUrl}${invoicePath}`, { headers: bearer(app.token) });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    return performance.now() - started;
  }

  async function reads(count: number): Promise<number[]> {
    const latencies: number[] = [];
    for (let n = 0; n < count; n++) latencies.push(await read());
    return latencies;
  }

  it(`${READS} sequential REST reads during a large export: p99 at most twice the idle p99`, async () => {
    const client = new TasksClient(app.mcpUrl, app.token, 'statement-embedded-reads');
    await client.start();
    try {
      await reads(20); // the read's code paths, warm

      const idle = await reads(READS);

      const exportStarted = performance.now();
      const created = await client.request('tools/call', { name: TOOL, arguments: PERIOD });
      const taskId = created.result.taskId as string;
      const running = await client.poll(
        taskId,
        (task) => task.status !== 'working' || /^Exporting \([1-9]\d*\/\d+\)$/.test(task.statusMessage),
      );
      assert.equal(running.status, 'working', 'the export is under way before the reads start');
      const during = await reads(READS);
      const still = (await client.request('tasks/get', { taskId })).result;
      assert.equal(still.status, 'working', `the export outlasted the ${READS} reads (${still.statusMessage})`);
      const done = await client.poll(taskId, undefined, 180_000);
      const exportMs = performance.now() - exportStarted;
      assert.equal(done.status, 'completed');
      assert.equal(JSON.parse(done.result.content[0].text).data.rows, SEEDED.invoices * 1.5);

      const [idleP99, duringP99] = [p99(idle), p99(during)];
      console.log(
        `embedded database, ${READS} reads: idle p99 ${idleP99.toFixed(1)} ms (median ${median(idle).toFixed(1)}), ` +
          `during the export p99 ${duringP99.toFixed(1)} ms (median ${median(during).toFixed(1)}); ` +
          `the export of ${SEEDED.invoices * 1.5} rows took ${(exportMs / 1000).toFixed(1)} s`,
      );
      assert.ok(duringP99 <= 2 * idleP99, `p99 during the export ${duringP99.toFixed(1)} ms > 2 × idle ${idleP99.toFixed(1)} ms`);
    } finally {
      await client.close();
    }
  });
});

/** The 99th percentile (nearest rank). */
function p99(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1];
}

function median(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A year of invoices of the demo workspace, a payment for every other one, by INSERT … SELECT over generate_series. */
async function seed(client: import('pg').Client): Promise<void> {
  const [{ id: workspaceId }] = (await client.query<{ id: string }>(`SELECT id FROM workspaces WHERE slug = 'demo'`)).rows;
  await client.query(
    `INSERT INTO customers (id, workspace_id, name, email, created_via, updated_via, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'Customer ' || g, 'embedded-' || g || '@customers.test', 'system', 'system', now()
     FROM generate_series(1, $2::int) g`,
    [workspaceId, SEEDED.customers],
  );
  await client.query(
    `WITH c AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS slot FROM customers WHERE workspace_id = $1::uuid)
     INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor,
                           created_via, updated_via, updated_at)
     SELECT gen_random_uuid(), $1::uuid, c.id, 'E-' || lpad(g::text, 6, '0'),
            (CASE WHEN g % 2 = 0 THEN 'paid' ELSE 'sent' END)::"InvoiceStatus", 'MXN',
            date '2025-01-01' + (g % 365), date '2025-01-01' + (g % 365) + 30, 1000 + g, CASE WHEN g % 2 = 0 THEN 1000 + g ELSE 0 END,
            'system', 'system', now()
     FROM generate_series(1, $2::int) g JOIN c ON c.slot = g % $3::int`,
    [workspaceId, SEEDED.invoices, SEEDED.customers],
  );
  await client.query(
    `INSERT INTO payments (id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference, refunded_minor,
                           created_via, updated_via, updated_at)
     SELECT gen_random_uuid(), workspace_id, id, paid_minor, currency, 'transfer', issue_date + interval '13 hours', 'TRK' || number, 0,
            'system', 'system', now()
     FROM invoices WHERE workspace_id = $1::uuid AND paid_minor > 0`,
    [workspaceId],
  );
  await client.query('ANALYZE customers, invoices, payments');
}
