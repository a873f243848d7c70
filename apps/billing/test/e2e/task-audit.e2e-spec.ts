/**
 * Every way a task ends has one audit row, and every row of a task carries its id: the `queued`
 * row of the call that created it, then the run's (`success`), or a cancel (by the MCP client, by
 * the REST caller, by a person on the admin pages) or a refusal at run time (the caller's token
 * revoked while the task waited). On the real application and database. (And an unfinished REST
 * job's `Retry-After`.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import {
  MCP_TASK_QUEUE,
  MCP_TASK_STORE,
  type McpTask,
  type McpTaskQueue,
  type McpTaskStore,
  TASKS_EXTENSION,
} from '@nest-mcp/core/extensions';
import { callStateless } from '@nest-mcp/core/testing';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { csrfOf, PanelVisitor, setPanelPassword } from '../support/panel.js';
import { restCall } from '../support/rest-http.js';

const TOOL = 'billing_statement_export';
const PERIOD = { from: '2025-01-01', to: '2025-01-31' };
const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

describe('task outcomes in the audit trail (real database)', () => {
  let t: BillingTestApp;
  let store: McpTaskStore;
  let queue: McpTaskQueue;

  before(async () => {
    t = await startBillingApp();
    store = t.app.get<McpTaskStore>(MCP_TASK_STORE);
    queue = t.app.get<McpTaskQueue>(MCP_TASK_QUEUE);
  });
  after(() => t?.close());

  const rowsOf = (taskId: string) =>
    t.prisma.client.mcpAuditEvent.findMany({
      where: { taskId },
      orderBy: { occurredAt: 'asc' },
      select: { channel: true, method: true, target: true, outcome: true, errorCode: true, userId: true, tokenId: true },
    });

  /** A task the MCP client created with `token` and saw completed: its id. */
  async function completedTask(token: string): Promise<string> {
    const created = await callStateless(t.mcpUrl, 'tools/call', { name: TOOL, arguments: PERIOD }, { token, capabilities: TASKS });
    const taskId = created.body.result?.taskId as string;
    assert.ok(taskId, created.text);
    await until(async () => (await store.get(taskId))?.status === 'completed');
    return taskId;
  }

  /**
   * A copy of a task the application created (same owner, caller and workspace), waiting in the
   * store with no job: it stays unfinished until the test cancels it or queues its run.
   */
  async function waitingCopy(of: string, followedAs: McpTask['followedAs'] = 'task'): Promise<string> {
    const original = (await store.get(of))!;
    const now = new Date();
    const id = randomUUID();
    const { result: _result, ...rest } = original;
    await store.create({
      ...rest,
      id,
      followedAs,
      status: 'working',
      statusMessage: 'Queued',
      createdAt: now,
      lastUpdatedAt: now,
      attempts: 0,
    });
    return id;
  }

  it('a completed task: its queued row and its run row, both with its id, no other', async () => {
    const token = await t.token();
    const taskId = await completedTask(token);
    await until(async () => (await rowsOf(taskId)).length === 2);
    assert.deepEqual(
      (await rowsOf(taskId)).map((row) => [row.channel, row.method, row.target, row.outcome, row.errorCode]),
      [
        ['mcp', 'tools/call', TOOL, 'queued', null],
        ['mcp', 'tools/call', TOOL, 'success', null],
      ],
    );
  });

  it("tasks/cancel by the MCP client: one cancelled row with the task's id, who cancelled", async () => {
    const token = await t.token();
    const taskId = await waitingCopy(await completedTask(token));
    const cancel = await callStateless(
      t.mcpUrl,
      'tasks/cancel',
      { taskId },
      { token, capabilities: TASKS, headers: { 'mcp-name': taskId } },
    );
    assert.equal(cancel.body.error, undefined, cancel.text);
    assert.equal((await store.get(taskId))?.status, 'cancelled');
    const rows = await rowsOf(taskId);
    assert.deepEqual(
      rows.map((row) => [row.channel, row.target, row.outcome, row.errorCode]),
      [['mcp', TOOL, 'cancelled', 'task_cancelled']],
    );
    assert.ok(rows[0].userId && rows[0].tokenId, 'the row names who cancelled');
    // A second cancel changes nothing and writes nothing.
    await callStateless(t.mcpUrl, 'tasks/cancel', { taskId }, { token, capabilities: TASKS, headers: { 'mcp-name': taskId } });
    assert.equal((await rowsOf(taskId)).length, 1);
  });

  it('DELETE /v1/jobs/{id} by the REST caller: one cancelled row in the api channel', async () => {
    const token = await t.token();
    const accepted = await restCall(t, token, 'POST', '/v1/statements/exports', PERIOD);
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const jobId = await waitingCopy(accepted.body.jobId, 'job');
    // Unfinished, the job tells a REST client when to ask again.
    assert.equal((await restCall(t, token, 'GET', `/v1/jobs/${jobId}`)).headers.get('retry-after'), '1');
    const cancelled = await restCall(t, token, 'DELETE', `/v1/jobs/${jobId}`);
    assert.equal(cancelled.body.status, 'cancelled', JSON.stringify(cancelled.body));
    assert.deepEqual(
      (await rowsOf(jobId)).map((row) => [row.channel, row.outcome, row.errorCode]),
      [['api', 'cancelled', 'task_cancelled']],
    );
  });

  it("a person's cancel on the admin pages: the task's cancelled row and the person's decision, both with its id", async () => {
    const token = await t.token();
    const taskId = await waitingCopy(await completedTask(token));
    await setPanelPassword(t, 'admin@demo.test', 'correct horse battery staple');
    const admin = new PanelVisitor(t.baseUrl);
    const signedIn = await admin.signIn('admin@demo.test', 'correct horse battery staple');
    assert.equal(signedIn.status, 303, signedIn.text);
    const list = await admin.get('/admin/tasks');
    assert.equal(list.status, 200, list.text);
    const cancelled = await admin.post(`/admin/tasks/${taskId}/cancel`, { _csrf: csrfOf(list.text) });
    assert.ok(cancelled.status < 400, cancelled.text);
    assert.equal((await store.get(taskId))?.status, 'cancelled');
    assert.deepEqual(
      (await rowsOf(taskId)).map((row) => [row.method, row.outcome, row.errorCode]),
      [
        ['tools/call', 'cancelled', 'task_cancelled'],
        ['task/cancel', 'success', null],
      ],
    );
  });

  it("a caller whose token was revoked while the task waited: the run is refused, one denied row with the task's id", async () => {
    const label = `revoked-${randomUUID()}`;
    const token = await t.token({ label });
    const taskId = await waitingCopy(await completedTask(token));
    const { id } = await t.prisma.client.accessToken.findFirstOrThrow({ where: { label } });
    await t.app.get(PersonalTokenService).revoke(id);
    await queue.enqueue(taskId);
    await until(async () => (await store.get(taskId))?.status === 'failed');
    assert.match((await store.get(taskId))!.error!.message, /could not run/);
    assert.deepEqual(
      (await rowsOf(taskId)).map((row) => [row.channel, row.target, row.outcome, row.errorCode]),
      [['mcp', TOOL, 'denied', 'task_refused']],
    );
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(50)) if (await check()) return;
  assert.fail('timed out');
}
