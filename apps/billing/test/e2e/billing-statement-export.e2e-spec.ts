/**
 * billing_statement_export: long work as an MCP task (docs/tasks.md), on the real application and
 * database. The same export three ways: a 2026-07-28 client that declared the tasks extension
 * (the official 2.x client's transport, polling tasks/get), a 2025-era client (the official SDK
 * 1.x: a queued job followed with billing_job_get), and REST (202 + Location, GET the job). Then
 * what binds a task to its caller, a cancel in the middle of a run, and the audit trail.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TASK_STORE, type McpTask, type McpTaskStore } from '@nest-mcp/core/extensions';
import { callTool, type Envelope } from '@nest-mcp/core/testing';
import { Prisma } from '../../src/generated/prisma/client.js';
import { STATEMENT_COLUMNS } from '../../src/billing/statements/statement-csv.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';
import { restCall } from '../support/rest-http.js';
import { storedBytes } from '../support/stored-files.js';
import { TasksClient } from '../support/tasks-client.js';

const TOOL = 'billing_statement_export';
/** The seeded year: every test period lies in it. */
const YEAR = { from: '2025-01-01', to: '2025-12-31' };
/** Enough rows that a whole-year export takes many pages (and a cancel lands in the middle of one). */
const SEEDED = { customers: 40, invoices: 24_000 };
/** Minimal RFC 4180 reader: the rows of a CSV (CRLF line ends), fields unquoted. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && !(c === '\r' && text[i + 1] === '\n'))) {
      field += c;
    } else {
      row.push(field);
      field = '';
      if (c === '\r') {
        rows.push(row);
        row = [];
        i++;
      }
    }
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

describe('billing_statement_export: a background task (real database)', () => {
  let t: BillingTestApp;
  let token: string;
  let workspaceId: string;
  let customerId: string;

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
    workspaceId = (await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } })).id;
    customerId = await seed(t, workspaceId);
  });
  after(() => t?.close());

  /** The rows the statement of `period` must hold, from the database, as CSV fields (id order). */
  async function expectedRows(period: { from: string; to: string; customer_id?: string }): Promise<string[][]> {
    const { rows } = await t.prisma.sql<Record<string, string | number | null>>(Prisma.sql`
      SELECT 'invoice' AS record_type, i.id::text AS id, to_char(i.issue_date, 'YYYY-MM-DD') AS date, i.number AS invoice_number,
             i.customer_id::text AS customer_id, c.name AS customer_name, i.currency, i.total_minor AS amount_minor,
             i.status::text AS status, to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.paid_minor,
             NULL AS refunded_minor, NULL AS method, NULL AS reference
      FROM invoices i JOIN customers c ON c.id = i.customer_id
      WHERE i.workspace_id = ${workspaceId}::uuid AND i.issue_date BETWEEN ${period.from}::date AND ${period.to}::date
        AND (${period.customer_id ?? null}::uuid IS NULL OR i.customer_id = ${period.customer_id ?? null}::uuid)
      UNION ALL
      SELECT 'payment', p.id::text, to_char(p.paid_at, 'YYYY-MM-DD'), i.number, i.customer_id::text, c.name, p.currency,
             p.amount_minor, NULL, NULL, NULL, p.refunded_minor, p.method::text, p.reference
      FROM payments p JOIN invoices i ON i.id = p.invoice_id JOIN customers c ON c.id = i.customer_id
      WHERE p.workspace_id = ${workspaceId}::uuid AND p.paid_at >= ${period.from}::date AND p.paid_at < ${period.to}::date + 1
        AND (${period.customer_id ?? null}::uuid IS NULL OR i.customer_id = ${period.customer_id ?? null}::uuid)`);
    return rows.map((row) => STATEMENT_COLUMNS.map((column) => asWritten(column, row[column]))).sort(byId);
  }

  /** The stored file of a finished export: it exists, matches its metadata, and its rows are the database's. */
  async function assertStatement(data: any, period: { from: string; to: string; customer_id?: string }, createdVia: string) {
    const attachment = await t.prisma.client.attachment.findUniqueOrThrow({ where: { id: data.attachment_id } });
    assert.equal(attachment.workspaceId, workspaceId);
    assert.equal(attachment.contentType, 'text/csv');
    assert.equal(attachment.createdVia, createdVia);
    assert.equal(attachment.sizeBytes, data.size_bytes);
    assert.equal(attachment.status, 'ready');
    const bytes = await storedBytes(t.prisma, data.attachment_id);
    assert.equal(bytes.length, data.size_bytes);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), data.sha256);
    const [header, ...rows] = parseCsv(bytes.toString('utf8'));
    assert.deepEqual(header, [...STATEMENT_COLUMNS]);
    const expected = await expectedRows(period);
    assert.ok(expected.length > STATEMENT_PAGE_TEST_MINIMUM, `the period holds several pages of rows (${expected.length})`);
    assert.equal(rows.length, data.rows);
    assert.equal(data.invoice_rows, expected.filter((row) => row[0] === 'invoice').length);
    assert.equal(data.payment_rows, expected.filter((row) => row[0] === 'payment').length);
    // Invoices first (by issue date), then payments (by time): in file order, every invoice row precedes every payment row.
    assert.equal(
      rows.findIndex((row) => row[0] === 'payment'),
      data.invoice_rows,
    );
    assert.deepEqual([...rows].sort(byId), expected);
  }

  it('2026-07-28 with the tasks extension: tools/call answers a task, tasks/get follows it to completed, the CSV matches the database', async () => {
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      const period = { from: '2025-03-01', to: '2025-05-31' };
      const created = await client.request('tools/call', { name: TOOL, arguments: period });
      assert.equal(created.error, undefined, JSON.stringify(created.error));
      assert.equal(created.result.resultType, 'task');
      assert.equal(created.result.status, 'working');
      assert.match(created.result.taskId, /^[0-9a-f-]{36}$/);

      const done = await client.poll(created.result.taskId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.result.isError, undefined, JSON.stringify(done.result));
      const answer = JSON.parse(done.result.content[0].text) as Envelope;
      assert.equal(answer.ok, true);
      assert.equal(answer.status, 'success');
      assert.equal(answer.data.customer_id, null);
      assert.match(answer.data.filename, /^statement-demo-2025-03-01-2025-05-31\.csv$/);
      assert.equal(answer.data.download_path, `/v1/attachments/${answer.data.attachment_id}/content`);
      assert.equal(answer.data.content_base64, undefined, 'never the bytes');
      await assertStatement(answer.data, period, 'mcp');
      // RFC 4180 quoting, and third-party text that starts like a formula written behind an apostrophe.
      const csv = (await storedBytes(t.prisma, answer.data.attachment_id)).toString();
      assert.ok(csv.startsWith(`${STATEMENT_COLUMNS.join(',')}\r\n`));
      assert.ok(csv.includes(',"Comma, ""Quoted"" & Co",'));
      assert.ok(csv.includes(`,"'=HYPERLINK(""http://evil.test"")",`));
      assert.ok(csv.includes(`,"Semi;'=2+5",`), 'a formula after a separator inside the field is guarded too');
      assert.match(csv, /,"'-TRK,\d+"\r\n/);

      // One audit row for the call that was accepted, one for the work, both on the MCP channel.
      const rows = await t.prisma.client.mcpAuditEvent.findMany({
        where: { target: TOOL, arguments: { path: ['from'], equals: period.from }, clientName: 'statement-e2e-2026' },
        orderBy: { occurredAt: 'asc' },
      });
      assert.deepEqual(
        rows.map((row) => [row.channel, row.method, row.outcome]),
        [
          ['mcp', 'tools/call', 'queued'],
          ['mcp', 'tools/call', 'success'],
        ],
      );
    } finally {
      await client.close();
    }
  });

  it('an idempotency_key: the same call again answers the same task, and the export runs once', async () => {
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      const period = { from: '2025-06-01', to: '2025-06-30' };
      const args = { ...period, idempotency_key: `export-once-${process.pid}` };
      const first = await client.request('tools/call', { name: TOOL, arguments: args });
      const again = await client.request('tools/call', { name: TOOL, arguments: args });
      assert.equal(first.result?.resultType, 'task', JSON.stringify(first));
      assert.equal(again.result?.taskId, first.result.taskId, 'the retry answers the task the first call created');
      const done = await client.poll(first.result.taskId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const tasks = await t.prisma.sql<{ count: number }>(
        Prisma.sql`SELECT count(*)::int AS count FROM mcp_tasks WHERE tool = ${TOOL} AND arguments->>'idempotency_key' = ${args.idempotency_key}`,
      );
      assert.equal(tasks.rows[0].count, 1, 'one task');
      const answer = JSON.parse(done.result.content[0].text) as Envelope;
      const files = await t.prisma.client.attachment.count({ where: { filename: answer.data.filename, workspaceId } });
      assert.equal(files, 1, 'one file');
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 with the tasks extension, one customer: only their invoices and the payments of those invoices', async () => {
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      const period = { ...YEAR, customer_id: customerId };
      const created = await client.request('tools/call', { name: TOOL, arguments: period });
      const done = await client.poll(created.result.taskId);
      const answer = JSON.parse(done.result.content[0].text) as Envelope;
      assert.equal(answer.data.customer_id, customerId);
      assert.match(answer.data.filename, new RegExp(`-customer-${customerId.slice(0, 8)}\\.csv$`));
      await assertStatement(answer.data, period, 'mcp');
    } finally {
      await client.close();
    }
  });

  it('2025 era (official SDK 1.x): a queued job, followed with billing_job_get to completed', async () => {
    const client = new SdkClient({ name: 'statement-e2e-2025', version: '1.0.0' });
    await client.connect(new SdkTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer(token) } }));
    try {
      const period = { from: '2025-06-01', to: '2025-08-31' };
      // As clients do: the list first (the SDK then checks each result against the tool's outputSchema, if any).
      assert.ok((await client.listTools()).tools.some((tool) => tool.name === TOOL && tool.outputSchema === undefined));
      const queued = await toolEnvelope(client, TOOL, period);
      assert.equal(queued.ok, true);
      assert.equal(queued.status, 'queued');
      assert.match(queued.data.jobId, /^[0-9a-f-]{36}$/);
      assert.ok(!Number.isNaN(Date.parse(queued.data.queuedAt)));
      assert.match(queued.nextQuestion ?? '', new RegExp(`billing_job_get with job_id "${queued.data.jobId}"`));

      let job: any;
      for (const started = Date.now(); Date.now() - started < 60_000; await sleep(50)) {
        job = (await toolEnvelope(client, 'billing_job_get', { job_id: queued.data.jobId })).data;
        if (job.status !== 'working') break;
      }
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.jobId, queued.data.jobId);
      assert.equal(job.tool, TOOL);
      assert.equal(job.statusMessage, 'Completed');
      assert.equal(job.result.ok, true);
      await assertStatement(job.result.data, period, 'mcp');
      // The job tool's answer, completed, links to the file as the export's own answer does.
      const answer = (await client.callTool({ name: 'billing_job_get', arguments: { job_id: queued.data.jobId } })) as {
        content: Array<{ type: string; uri?: string }>;
      };
      const links = answer.content.filter((block) => block.type === 'resource_link').map((block) => block.uri);
      assert.equal(links.length, job.result.data.parts);
      assert.ok(links[0]!.startsWith(job.result.data.resource_uri), links[0]);
    } finally {
      await client.close();
    }
  });

  it('REST: 202 Accepted with Location /v1/jobs/{id} and the job, then GET the job until completed (created_via api)', async () => {
    const period = { from: '2025-09-01', to: '2025-11-30' };
    const accepted = await restCall(t, token, 'POST', '/v1/statements/exports', period);
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.equal(accepted.headers.get('location'), `/v1/jobs/${accepted.body.jobId}`);
    // When to ask the job: the layer's polling interval (1 s), in whole seconds.
    assert.equal(accepted.headers.get('retry-after'), '1');
    assert.equal(accepted.body.tool, TOOL);
    assert.equal(accepted.body.status, 'working');

    let job: any;
    for (const started = Date.now(); Date.now() - started < 60_000; await sleep(50)) {
      const answer = await restCall(t, token, 'GET', accepted.headers.get('location')!);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      job = answer.body;
      // An unfinished job says when to ask again; a finished one does not.
      assert.equal(answer.headers.get('retry-after'), job.status === 'working' ? '1' : null, JSON.stringify(job));
      if (job.status !== 'working') break;
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.result.ok, true);
    await assertStatement(job.result.data, period, 'api');
  });

  it('a file of several parts: one resource_link per part in the result, each read over MCP, joined = the stored file = the REST download', async () => {
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      // A year but its first day: the audit rows of the cancel test below are those of YEAR.
      const period = { from: '2025-01-02', to: YEAR.to };
      const created = await client.request('tools/call', { name: TOOL, arguments: period });
      const done = await client.poll(created.result.taskId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const [text, ...links] = done.result.content;
      const { data } = JSON.parse(text.text) as Envelope;
      await assertStatement(data, period, 'mcp');
      const stored = await storedBytes(t.prisma, data.attachment_id);
      assert.ok(data.parts > 1, `a year is several parts (${data.parts})`);
      assert.equal(data.resource_uri, `billing://attachments/${data.attachment_id}`);
      assert.deepEqual(
        links.map((link: any) => [link.type, link.uri, link.mimeType]),
        Array.from({ length: data.parts }, (_, i) => ['resource_link', `${data.resource_uri}/parts/${i + 1}`, 'text/csv']),
      );
      assert.equal(
        links.reduce((sum: number, link: any) => sum + link.size, 0),
        data.size_bytes,
      );

      // Each part is text (whole CSV lines, the header in the first); joined in order, they are the file.
      const parts: string[] = [];
      for (const link of links) {
        const read = await client.request('resources/read', { uri: link.uri });
        assert.equal(read.error, undefined, JSON.stringify(read.error));
        const [content] = read.result.contents;
        assert.equal(content.uri, link.uri);
        assert.equal(content.mimeType, 'text/csv');
        assert.equal(Buffer.byteLength(content.text), link.size);
        assert.ok(content.text.endsWith('\r\n'), 'a part ends with a whole line');
        parts.push(content.text);
      }
      assert.ok(parts[0].startsWith(`${STATEMENT_COLUMNS.join(',')}\r\n`));
      assert.ok(Buffer.from(parts.join('')).equals(stored), 'the parts joined are the stored file');

      // The whole file at once is refused, naming the parts; a part past the last is not found.
      const whole = await client.request('resources/read', { uri: data.resource_uri });
      assert.equal(whole.error?.code, -32602);
      assert.match(whole.error.message, new RegExp(`stored in ${data.parts} parts .*/parts/1 to .*/parts/${data.parts}`));
      const past = await client.request('resources/read', { uri: `${data.resource_uri}/parts/${data.parts + 1}` });
      assert.equal(past.error?.code, -32602);
      assert.match(past.error.message, new RegExp(`its parts are 1 to ${data.parts}`));

      // REST streams the same bytes, part after part.
      const response = await fetch(`${t.baseUrl}${data.download_path}`, { headers: bearer(token) });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-length'), String(data.size_bytes));
      assert.equal(response.headers.get('content-type'), 'text/csv');
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(stored));
    } finally {
      await client.close();
    }
  });

  it('REST: arguments are checked before anything is queued (400, no job)', async () => {
    const before = await taskCount();
    const answer = await restCall(t, token, 'POST', '/v1/statements/exports', { from: '2025-05-01', to: '2025-04-01' });
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.match(JSON.stringify(answer.body), /`to` \(2025-04-01\) must be on or after from \(2025-05-01\)/);
    assert.equal(await taskCount(), before);
  });

  it('REST: 429 with a clear message when the workspace has as many unfinished jobs as it may', async () => {
    const store = t.app.get<McpTaskStore>(MCP_TASK_STORE);
    const parked: string[] = [];
    // Unfinished tasks of the workspace that never run (no job queued for them): the limit counts them.
    while ((await store.countActive({ workspaceId, ownerKey: '' })) < 20) parked.push(await parkTask(store, workspaceId));
    try {
      const answer = await restCall(t, token, 'POST', '/v1/statements/exports', YEAR);
      assert.equal(answer.status, 429, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'too_many_tasks');
      assert.match(answer.body.message, /already has 20 unfinished tasks, the most it may have: billing_statement_export was not started/);
    } finally {
      for (const id of parked) await store.transition(id, ['working'], { status: 'cancelled', statusMessage: 'test cleanup' });
    }
  });

  it("another caller's job or task is not found: 404 over REST, a tool error naming the id, -32602 on tasks/get", async () => {
    const accepted = await restCall(t, token, 'POST', '/v1/statements/exports', { from: '2025-12-01', to: '2025-12-31' });
    assert.equal(accepted.status, 202);
    const jobId = accepted.body.jobId as string;
    // The same person with another token is another caller too; so is another member of the workspace.
    for (const other of [await t.token(), await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] })]) {
      const rest = await restCall(t, other, 'GET', `/v1/jobs/${jobId}`);
      assert.equal(rest.status, 404, JSON.stringify(rest.body));
      assert.match(rest.body.message, new RegExp(`Job ${jobId} was not found among the jobs you started`));
      const cancel = await restCall(t, other, 'DELETE', `/v1/jobs/${jobId}`);
      assert.equal(cancel.status, 404);

      const tool = await callTool(t.mcpUrl, 'billing_job_get', { job_id: jobId }, { token: other });
      assert.equal(tool.isError, true);
      assert.equal(tool.envelope.errors[0].code, 'not_found');
      assert.match(tool.envelope.errors[0].message, new RegExp(jobId));

      const client = new TasksClient(t.mcpUrl, other, 'statement-e2e-2026');
      await client.start();
      try {
        const answer = await client.request('tasks/get', { taskId: jobId });
        assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
        assert.match(answer.error?.message ?? '', /Task not found/);
      } finally {
        await client.close();
      }
    }
    // An unknown id reads the same as another caller's.
    const unknown = await restCall(t, token, 'GET', '/v1/jobs/00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    await waitJob(token, jobId);
  });

  it('tasks/cancel in the middle of a run: cancelled, no file stored, the audit row says so', async () => {
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      const attachments = await t.prisma.client.attachment.count({ where: { workspaceId } });
      const created = await client.request('tools/call', { name: TOOL, arguments: YEAR });
      const taskId = created.result.taskId as string;
      // Running (its progress is the task's statusMessage: "Exporting (done/total)"), far from done.
      const running = await client.poll(taskId, (task) => task.status !== 'working' || /^Exporting \(\d+\/\d+\)$/.test(task.statusMessage));
      assert.equal(running.status, 'working', `still running when cancelled: ${JSON.stringify(running)}`);
      const [, done, total] = /^Exporting \((\d+)\/(\d+)\)$/.exec(running.statusMessage)!;
      assert.ok(Number(done) < Number(total), running.statusMessage);

      const cancel = await client.request('tasks/cancel', { taskId });
      assert.equal(cancel.error, undefined, JSON.stringify(cancel.error));
      const ended = await client.poll(taskId, (task) => task.status !== 'working');
      assert.equal(ended.status, 'cancelled');
      // The cancel writes its audit row at once; the run stops at its next page and discards its file
      // then. Its end is its pg-boss job leaving `active` (@nest-mcp/prisma's default schema and queue).
      const audited = { target: TOOL, channel: 'mcp', arguments: { equals: YEAR } } as const;
      await until(async () => (await t.prisma.client.mcpAuditEvent.count({ where: { ...audited, outcome: 'cancelled' } })) === 1);
      await until(async () => {
        const { rows } = await t.prisma.sql<{ state: string }>(
          Prisma.sql`SELECT state::text AS state FROM pgboss.job WHERE name = 'mcp-tasks' AND data->>'taskId' = ${taskId}`,
        );
        return rows.length === 1 && rows[0].state !== 'active' && rows[0].state !== 'created';
      });
      assert.equal(await t.prisma.client.attachment.count({ where: { workspaceId } }), attachments, 'no file was stored');
      assert.equal(await t.prisma.client.attachment.count({ where: { status: 'pending' } }), 0, 'not even a pending one');
      const orphans = await t.prisma.sql<{ n: number }>(
        Prisma.sql`SELECT count(*)::int AS n FROM attachment_parts p WHERE NOT EXISTS (SELECT 1 FROM attachments a WHERE a.id = p.attachment_id)`,
      );
      assert.equal(orphans.rows[0].n, 0);
      const rows = await t.prisma.client.mcpAuditEvent.findMany({ where: audited, orderBy: { occurredAt: 'asc' } });
      assert.deepEqual(
        rows.map((row) => [row.channel, row.outcome, row.errorCode]),
        [
          ['mcp', 'queued', null],
          ['mcp', 'cancelled', 'task_cancelled'],
        ],
      );
      // Cancelling again is an empty ack: nothing changes.
      assert.equal((await client.request('tasks/cancel', { taskId })).error, undefined);
      assert.equal((await client.request('tasks/get', { taskId })).result.status, 'cancelled');
    } finally {
      await client.close();
    }
  });

  it('DELETE /v1/jobs/{id}: the REST caller cancels its own job', async () => {
    const accepted = await restCall(t, token, 'POST', '/v1/statements/exports', YEAR);
    assert.equal(accepted.status, 202);
    const cancelled = await restCall(t, token, 'DELETE', `/v1/jobs/${accepted.body.jobId}`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.statusMessage, 'Cancelled by the caller');
    assert.equal(cancelled.headers.get('retry-after'), null, 'a cancelled job has nothing to wait for');
    assert.equal((await restCall(t, token, 'GET', `/v1/jobs/${accepted.body.jobId}`)).body.status, 'cancelled');
  });

  it('a customer of another workspace: the job completes with not_found, nothing stored', async () => {
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      const stranger = '00000000-0000-4000-8000-0000000000aa';
      const created = await client.request('tools/call', { name: TOOL, arguments: { ...YEAR, customer_id: stranger } });
      const done = await client.poll(created.result.taskId);
      assert.equal(done.status, 'completed');
      assert.equal(done.result.isError, true, JSON.stringify(done.result).slice(0, 600));
      const answer = JSON.parse(done.result.content[0].text) as Envelope;
      assert.equal(answer.errors[0].code, 'not_found');
      assert.match(answer.errors[0].message, new RegExp(`Customer ${stranger} was not found`));
    } finally {
      await client.close();
    }
  });

  async function taskCount(): Promise<number> {
    const { rows } = await t.prisma
      .sql<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM mcp_tasks`)
      .catch(() => ({ rows: [{ n: -1 }] }));
    return rows[0].n;
  }

  async function waitJob(caller: string, jobId: string): Promise<void> {
    await until(async () => (await restCall(t, caller, 'GET', `/v1/jobs/${jobId}`)).body.status !== 'working');
  }
});

describe('billing_statement_export past STATEMENT_EXPORT_MAX_BYTES (real database)', () => {
  let t: BillingTestApp;

  before(async () => {
    t = await withEnv({ STATEMENT_EXPORT_MAX_BYTES: '100000' }, () => startBillingApp());
    await seed(t, (await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } })).id);
  });
  after(() => t?.close());

  it('stops at the limit: statement_too_large states it, nothing is stored (no file, no pending part)', async () => {
    const token = await t.token();
    const client = new TasksClient(t.mcpUrl, token, 'statement-e2e-2026');
    await client.start();
    try {
      // Thousands of rows: megabytes, far more than 100000 bytes.
      const created = await client.request('tools/call', { name: TOOL, arguments: YEAR });
      const done = await client.poll(created.result.taskId);
      assert.equal(done.status, 'completed');
      assert.equal(done.result.isError, true, JSON.stringify(done.result).slice(0, 600));
      const [error] = (JSON.parse(done.result.content[0].text) as Envelope).errors;
      assert.equal(error.code, 'statement_too_large');
      assert.match(error.message, /^The statement would be larger than 97\.66 KiB \(100000 bytes\), the most a statement export may store/);
      assert.match(error.message, /Nothing was stored\. Export a shorter period, or one customer at a time \(customer_id\)\.$/);
      assert.equal(error.field, 'from');
      assert.match(error.message_es, /No se guardó nada/);
      assert.equal(await t.prisma.client.attachment.count(), 0);
      const parts = await t.prisma.sql<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM attachment_parts`);
      assert.equal(parts.rows[0].n, 0);
    } finally {
      await client.close();
    }
  });
});

/**
 * A database value as the statement writes it: empty for NULL, and third-party text whose start,
 * or any segment after a separator (, ; tab CR LF), starts like a spreadsheet formula behind an
 * apostrophe (CSV injection).
 */
function asWritten(column: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (column !== 'customer_name' && column !== 'reference') return text;
  return text
    .split(/(?<=[,;\t\r\n])/)
    .map((segment) => (/^[=+\-@\t\r]/.test(segment) ? `'${segment}` : segment))
    .join('');
}

/** An export needs more than one page for these tests to mean anything. */
const STATEMENT_PAGE_TEST_MINIMUM = 500;

function byId(a: string[], b: string[]): number {
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(50)) if (await check()) return;
  assert.fail('timed out');
}

async function toolEnvelope(client: SdkClient, name: string, args: Record<string, unknown>): Promise<Envelope> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0].text) as Envelope;
}

/** A task of the workspace that stays `working` and never runs (no job is queued for it). */
async function parkTask(store: McpTaskStore, workspaceId: string): Promise<string> {
  const now = new Date();
  const task: McpTask = {
    id: crypto.randomUUID(),
    ownerKey: 'test:parked',
    workspaceId,
    tool: TOOL,
    arguments: {},
    caller: {},
    client: { protocolVersion: '2026-07-28', capabilities: {} },
    followedAs: 'job',
    status: 'working',
    statusMessage: 'Queued',
    createdAt: now,
    lastUpdatedAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    attempts: 0,
  };
  await store.create(task);
  return task.id;
}

/**
 * The demo workspace's billing data for a year (2025), by bulk INSERT … SELECT: customers, one
 * invoice per (day, customer slot), and a payment for every other invoice. One customer's name
 * needs quoting in CSV, another starts like a formula. Returns a customer with invoices.
 */
async function seed(t: BillingTestApp, workspaceId: string): Promise<string> {
  await t.prisma.sql(Prisma.sql`
    INSERT INTO customers (id, workspace_id, name, email, created_via, updated_via, updated_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid,
           CASE g WHEN 1 THEN 'Comma, "Quoted" & Co' WHEN 2 THEN '=HYPERLINK("http://evil.test")' WHEN 3 THEN 'Semi;=2+5'
                  ELSE 'Customer ' || g END,
           'export-' || g || '@customers.test', 'system', 'system', now()
    FROM generate_series(1, ${SEEDED.customers}::int) g`);
  await t.prisma.sql(Prisma.sql`
    WITH c AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS slot FROM customers WHERE workspace_id = ${workspaceId}::uuid AND email LIKE 'export-%')
    INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor,
                          created_via, updated_via, updated_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, c.id, 'EXP-' || lpad(g::text, 6, '0'),
           (CASE WHEN g % 2 = 0 THEN 'paid' ELSE 'sent' END)::"InvoiceStatus", CASE WHEN g % 5 = 0 THEN 'USD' ELSE 'MXN' END,
           date '2025-01-01' + (g % 365), date '2025-01-01' + (g % 365) + 30, 1000 + g, CASE WHEN g % 2 = 0 THEN 1000 + g ELSE 0 END,
           'system', 'system', now()
    FROM generate_series(1, ${SEEDED.invoices}::int) g JOIN c ON c.slot = g % ${SEEDED.customers}::int`);
  await t.prisma.sql(Prisma.sql`
    INSERT INTO payments (id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference, refunded_minor,
                          created_via, updated_via, updated_at)
    SELECT gen_random_uuid(), workspace_id, id, paid_minor, currency, 'transfer', issue_date + interval '9 days 13 hours',
           CASE WHEN paid_minor % 7 = 0 THEN '-TRK,' || paid_minor ELSE 'TRK' || paid_minor END, paid_minor % 3,
           'system', 'system', now()
    FROM invoices WHERE workspace_id = ${workspaceId}::uuid AND number LIKE 'EXP-%' AND paid_minor > 0`);
  const { rows } = await t.prisma.sql<{ id: string }>(Prisma.sql`
    SELECT id FROM customers WHERE workspace_id = ${workspaceId}::uuid AND email = 'export-1@customers.test'`);
  return rows[0].id;
}
