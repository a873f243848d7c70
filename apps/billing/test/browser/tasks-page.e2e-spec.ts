/**
 * The admin tasks page in a real browser (Debian's Chromium driven by playwright-core): an agent
 * on the official MCP SDK 1.x exports statements (billing_statement_export, queued jobs); an admin
 * of the workspace sees who runs what, how far it got and how long it took, and cancels a running
 * export: the agent's job reads cancelled, no file is stored, the audit trail says who cancelled.
 * Screenshots go to test-results/screenshots/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type Envelope } from '@nest-mcp/core/testing';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { addMember, csrfOf, PanelVisitor, setPanelPassword } from '../support/panel.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve(process.cwd(), 'test-results', 'screenshots');
const ADMIN = { email: 'admin@demo.test', name: 'Demo Admin', password: 'tasks admin password 1' };
const REQUESTER = { email: 'olivia@demo.test', name: 'Olivia Ops' };
const OUTSIDER = { email: 'boss@elsewhere.test', password: 'elsewhere password 1' };
const HOSTILE_CLIENT = '<img src=x onerror=alert(1)>';
const TOOL = 'billing_statement_export';

function skipReason(): string | false {
  if (!existsSync(CHROMIUM) && !process.env.CI) return `no browser at ${CHROMIUM} (CI installs it: .ci/run)`;
  // The running export is held on a table lock taken by another connection: the embedded PGlite
  // (one backend for every connection) would wait on it everywhere.
  if (!process.env.DATABASE_URL) return 'needs a real PostgreSQL (DATABASE_URL)';
  return false;
}

describe('tasks page in Chromium: an admin watches and cancels an agent’s statement export', { skip: skipReason() }, () => {
  let t: BillingTestApp;
  let browser: Browser;
  let page: Page;
  let agent: Client;
  let adminId: string;
  const problems: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** The agent's `tools/call`, its envelope. */
  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<Envelope> => {
    const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> };
    return JSON.parse(result.content[0].text) as Envelope;
  };
  const connect = async (token: string, name: string): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    return client;
  };
  const job = async (client: Client, jobId: string) => (await call(client, 'billing_job_get', { job_id: jobId })).data;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startBillingApp();
    // The demo data npm start seeds (the last year's invoices): a statement of it has a few hundred rows.
    await seedDemo(t.prisma, { billing: true });
    await setPanelPassword(t, ADMIN.email, ADMIN.password);
    adminId = (await t.prisma.client.user.findUniqueOrThrow({ where: { email: ADMIN.email } })).id;
    await addMember(t, { ...REQUESTER, workspace: 'demo', role: 'accountant' });
    await addMember(t, {
      email: OUTSIDER.email,
      name: 'Elsewhere Boss',
      workspace: 'elsewhere',
      role: 'admin',
      password: OUTSIDER.password,
    });
    agent = await connect(await t.token({ email: REQUESTER.email, scopes: ['billing:read', 'billing:write'] }), 'Statement Bot');

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    // Which load failed, when one does (Chromium's console line does not say).
    page.on(
      'response',
      (response) => response.status() >= 400 && problems.push(`${response.status()} ${new URL(response.url()).pathname}`),
    );
    page.on('dialog', (dialog) => (problems.push(`dialog: ${dialog.message()}`), void dialog.dismiss()));
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  });

  after(async () => {
    await browser?.close();
    await agent?.close();
    await t?.close();
  });

  it('lists a finished export (who, client, status, duration), then cancels a running one: cancelled for the agent, nothing stored, audited', async () => {
    // A finished export, from an agent whose name is markup: shown as text.
    const hostile = await connect(await t.token({ email: REQUESTER.email, scopes: ['billing:read', 'billing:write'] }), HOSTILE_CLIENT);
    try {
      const queued = await call(hostile, TOOL, { from: '2000-01-01', to: '2099-12-31' });
      assert.equal(queued.status, 'queued', JSON.stringify(queued));
      for (let state = await job(hostile, queued.data.jobId); state.status === 'working'; state = await job(hostile, queued.data.jobId))
        await sleep(50);
    } finally {
      await hostile.close();
    }
    const stored = await t.prisma.client.attachment.count();
    assert.equal(stored, 1);

    // A running export, held at its write by a lock another connection takes on the attachments table.
    const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    let locked = true;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE attachments IN SHARE MODE');
      const running = await call(agent, TOOL, { from: '2000-01-01', to: '2099-12-31' });
      assert.equal(running.status, 'queued');
      const jobId = running.data.jobId as string;
      for (const started = Date.now(); ; await sleep(50)) {
        const { rows } = await locker.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'attachments'::regclass AND NOT granted`,
        );
        if (rows[0].n > 0) break;
        assert.ok(Date.now() - started < 30_000, 'the export reached its write');
      }
      assert.equal((await job(agent, jobId)).status, 'working');

      await page.goto(`${t.baseUrl}/admin/tasks`);
      assert.equal(new URL(page.url()).pathname, '/admin/login');
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState('load');
      assert.equal(new URL(page.url()).pathname, '/admin/tasks', 'back on the tasks page after sign-in');
      await page.getByRole('heading', { name: 'Tasks' }).waitFor();

      const runningRow = page.locator(`tr[data-task-id="${jobId}"]`);
      const text = await runningRow.innerText();
      for (const expected of [
        'Export a period statement (CSV)',
        TOOL,
        'Demo Company',
        REQUESTER.name,
        REQUESTER.email,
        'via Statement Bot 1.0.0',
        'running',
      ]) {
        assert.ok(text.includes(expected), `the running task shows ${expected}: ${text}`);
      }
      assert.match(text, /Running|Exporting \(\d+\/\d+\)/);
      assert.match(text, /\d+\.\d s|\d+ min/, 'how long it has run');
      assert.ok(await page.locator('h2:text-is("Running and queued") + table').locator(`tr[data-task-id="${jobId}"]`).count());

      const finishedRow = page.locator('h2:text-is("Recent") + table tbody tr').first();
      const finished = await finishedRow.innerText();
      assert.ok(finished.includes(`via ${HOSTILE_CLIENT} 1.0.0`), finished);
      assert.ok(finished.includes('completed'), finished);
      assert.equal(await finishedRow.getByRole('button', { name: 'Cancel' }).count(), 0, 'a finished task has no Cancel');
      await shot('tasks-01-running');

      await runningRow.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForLoadState('load');
      await assert.doesNotReject(
        page
          .getByRole('status')
          .filter({ hasText: `Cancelled: Export a period statement (CSV) for ${REQUESTER.name}` })
          .waitFor(),
      );
      const cancelledRow = page.locator('h2:text-is("Recent") + table').locator(`tr[data-task-id="${jobId}"]`);
      assert.match(await cancelledRow.innerText(), /cancelled[\s\S]*Cancelled by Demo Admin on the admin pages/);
      assert.equal(await page.locator('h2:text-is("Running and queued") + table').count(), 0, 'nothing runs any more');
      await shot('tasks-02-cancelled');

      // The agent reads it at once; the run, let go, stops at its next check and rolls back.
      const seen = await job(agent, jobId);
      assert.deepEqual([seen.status, seen.statusMessage], ['cancelled', 'Cancelled by Demo Admin on the admin pages']);
      await locker.query('COMMIT');
      locked = false;
      // The run stops at its next check and deletes what it had begun to store: nothing is left.
      for (const started = Date.now(); (await t.prisma.client.attachment.count()) !== stored; await sleep(50)) {
        assert.ok(Date.now() - started < 30_000, 'no file stored by the cancelled export');
      }
      // The task's end: one `cancelled` row, with its id, in the channel of the page that cancelled it.
      const ends = await t.prisma.client.mcpAuditEvent.findMany({ where: { target: TOOL, outcome: 'cancelled', taskId: jobId } });
      assert.deepEqual(
        ends.map((row) => [row.channel, row.errorCode]),
        [['panel', 'task_cancelled']],
      );
      const decision = await t.prisma.client.mcpAuditEvent.findMany({
        where: { method: 'task/cancel', arguments: { path: ['task_id'], equals: jobId } },
      });
      assert.deepEqual(
        decision.map((row) => [row.channel, row.userId, row.target, row.outcome]),
        [['panel', adminId, TOOL, 'success']],
      );
    } finally {
      if (locked) await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    // Chromium's own request for /favicon.ico (there is none) is logged as a failed load but is no
    // response of the page's: a failed load of the page's own shows in the `response` lines.
    const pageProblems = problems.filter((p) => !/^console: Failed to load resource: .* 404 /.test(p));
    assert.deepEqual(pageProblems, [], 'no script ran, no CSP violation, no failed load');
  });

  it('an admin of another workspace sees none of these tasks and cannot cancel one by its id', async () => {
    const [task] = await t.prisma.client.mcpTask.findMany({ where: { tool: TOOL }, take: 1 });
    const visitor = new PanelVisitor(t.baseUrl);
    assert.equal((await visitor.signIn(OUTSIDER.email, OUTSIDER.password)).status, 303);
    const list = await visitor.get('/admin/tasks');
    assert.equal(list.status, 200);
    assert.ok(list.text.includes('Nothing is running.'));
    assert.ok(!list.text.includes(task.id));
    const cancel = await visitor.post(`/admin/tasks/${task.id}/cancel`, { _csrf: csrfOf(list.text) });
    assert.equal(cancel.status, 404);
    assert.match(cancel.text, /Task not found/);
    // Without the session's CSRF token, nothing is done either.
    const forged = await visitor.post(`/admin/tasks/${task.id}/cancel`, {});
    assert.equal(forged.status, 403);
  });
});
