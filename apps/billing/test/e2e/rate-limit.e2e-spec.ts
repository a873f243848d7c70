import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ApplicationConfig } from '@nestjs/core';
import { MemoryRateLimitStore, RedisRateLimitStore } from '@nest-mcp/redis';
import { PrismaService } from '../../src/database/prisma.service.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { RATE_LIMIT_EXCEEDED_CODE } from '../../src/rate-limit/rate-limit.exception.js';
import { RATE_LIMIT_STORE } from '../../src/rate-limit/store/rate-limit.store.js';
import { appsOnOneDatabase, type AppsOnOneDatabase } from '../support/apps-on-one-database.js';
import { bearer } from '../support/billing-app.js';
import { post, statelessRequest, type HttpAnswer } from '@nest-mcp/core/testing';
import type { TestApp } from '../support/test-app.js';

// The machine's Redis (CI starts it); every app below gets keys of its own under a prefix unique
// to this run, so parallel test files and earlier runs never share a bucket.
const REDIS_URL = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUN = `rl-e2e-${process.pid}-${randomBytes(3).toString('hex')}`;
const NO_WORKSPACE_LIMIT = '100000';

async function mcp(app: TestApp, token: string, method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  const request = statelessRequest(method, params, id);
  return post(app.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
}

async function rest(app: TestApp, token: string, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

const summary = (app: TestApp, token: string, id: number | string = 1) =>
  mcp(app, token, 'tools/call', { name: 'billing_customer_summary', arguments: { email: 'nobody@nowhere.test' } }, id);

async function spend(times: number, request: (i: number) => Promise<HttpAnswer>): Promise<void> {
  for (let i = 1; i <= times; i++) {
    const { status, text } = await request(i);
    assert.equal(status, 200, `request ${i} of ${times} should pass: ${status} ${text.slice(0, 300)}`);
  }
}

function assertMcpRefusal(
  answer: HttpAnswer,
  expected: { id: number | string; version: string; limit: 'token' | 'workspace'; cost: number; per: number },
) {
  const { status, headers, body } = answer;
  assert.equal(status, 429, answer.text);
  assert.equal(headers.get('mcp-protocol-version'), expected.version);
  assert.equal(headers.get('cache-control'), 'no-store');
  assert.match(headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, expected.id);
  assert.equal(body.error.code, RATE_LIMIT_EXCEEDED_CODE);
  const { data } = body.error;
  assert.equal(data.limit, expected.limit);
  assert.equal(data.cost, expected.cost);
  assert.equal(data.unitsPerMinute, expected.per);
  assert.equal(headers.get('retry-after'), String(data.retryAfterSeconds));
  assert.ok(data.retryAfterSeconds >= 1 && data.retryAfterSeconds <= 60, `retryAfterSeconds ${data.retryAfterSeconds}`);
  assert.match(
    body.error.message,
    new RegExp(
      `^Rate limit exceeded for .*${expected.per} units per minute .*costs ${expected.cost}\\); retry after ${data.retryAfterSeconds} s$`,
    ),
  );
  return body.error;
}

function storeOf(app: TestApp): unknown {
  return app.app.get(RATE_LIMIT_STORE);
}

describe('rate limits per token and per workspace (real Redis, real app)', () => {
  let apps: AppsOnOneDatabase;
  const onRedis = (name: string, env: Record<string, string>) =>
    apps.start({ REDIS_URL, RATE_LIMIT_KEY_PREFIX: `${RUN}-${name}`, RATE_LIMIT_DISABLED: undefined, ...env });

  before(async () => {
    apps = await appsOnOneDatabase();
  });
  after(() => apps?.close());

  describe('per token', () => {
    let app: TestApp;
    before(async () => {
      app = await onRedis('token', { RATE_LIMIT_TOKEN_PER_MINUTE: '5', RATE_LIMIT_WORKSPACE_PER_MINUTE: NO_WORKSPACE_LIMIT });
      assert.ok(storeOf(app) instanceof RedisRateLimitStore);
      assert.ok((storeOf(app) as RedisRateLimitStore).connected, 'the app is connected to Redis');
    });

    it('over MCP (2026-07-28): the call past the limit is a 429 with Retry-After, the MCP headers and a JSON-RPC error naming the limit; it runs nothing', async () => {
      const token = await apps.token();
      // Five reads at 1 unit each: the tool's handler runs the global guards again in-process,
      // and must not be charged a second time.
      await spend(5, () => summary(app, token));

      const email = `rl-${randomUUID()}@limits.test`;
      const write = await mcp(
        app,
        token,
        'tools/call',
        { name: 'billing_customer_create', arguments: { name: 'Limited', email } },
        'call-6',
      );
      const error = assertMcpRefusal(write, { id: 'call-6', version: '2026-07-28', limit: 'token', cost: 5, per: 5 });
      assert.match(
        error.message,
        /^Rate limit exceeded for this token: 5 units per minute \(tools\/call billing_customer_create costs 5\)/,
      );
      assert.equal(await apps.prisma().client.customer.count({ where: { email } }), 0, 'the refused call created nothing');

      // The bucket stays empty: a 1-unit call is refused too, within one emission (12 s).
      const list = await mcp(app, token, 'tools/list', {}, 7);
      const listError = assertMcpRefusal(list, { id: 7, version: '2026-07-28', limit: 'token', cost: 1, per: 5 });
      assert.ok(listError.data.retryAfterSeconds <= 12, `one unit frees up within 12 s, got ${listError.data.retryAfterSeconds}`);
    });

    it('over MCP (2025 era): the same refusal, announcing the version in use', async () => {
      const token = await apps.token();
      const ping = (id: number) =>
        post(app.mcpUrl, { jsonrpc: '2.0', id, method: 'ping', params: {} }, { 'mcp-protocol-version': '2025-06-18', ...bearer(token) });
      await spend(5, () => ping(1));
      assertMcpRefusal(await ping(6), { id: 6, version: '2025-06-18', limit: 'token', cost: 1, per: 5 });
    });

    it('over REST: a JSON 429 with Retry-After', async () => {
      const token = await apps.token();
      await spend(5, () => rest(app, token, 'GET', '/v1/customers'));
      const { status, headers, body } = await rest(app, token, 'GET', '/v1/customers');
      assert.equal(status, 429);
      assert.match(headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(headers.get('retry-after'), String(body.retryAfterSeconds));
      assert.equal(body.statusCode, 429);
      assert.equal(body.error, 'Too Many Requests');
      assert.equal(body.limit, 'token');
      assert.equal(body.cost, 1);
      assert.match(
        body.message,
        /^Rate limit exceeded for this token: 5 units per minute \(GET \/v1\/customers costs 1\); retry after \d+ s$/,
      );
      assert.equal(body.headers, undefined);
    });

    it('MCP and REST draw from the same bucket of the token', async () => {
      const token = await apps.token();
      await spend(3, () => summary(app, token));
      await spend(2, () => rest(app, token, 'GET', '/v1/customers'));
      assert.equal((await rest(app, token, 'GET', '/v1/customers')).status, 429);
      assert.equal((await summary(app, token)).status, 429);
    });

    it('each token has its own bucket', async () => {
      const [first, second] = [await apps.token(), await apps.token()];
      await spend(5, () => summary(app, first));
      assert.equal((await summary(app, first)).status, 429);
      await spend(5, () => summary(app, second));
    });
  });

  describe('order of the global guards', () => {
    let app: TestApp;
    before(async () => {
      app = await onRedis('order', { RATE_LIMIT_TOKEN_PER_MINUTE: '2', RATE_LIMIT_WORKSPACE_PER_MINUTE: NO_WORKSPACE_LIMIT });
    });

    it('the rate-limit guard is registered after authentication, workspace and scope guards', () => {
      const config = (app.app as unknown as { config: ApplicationConfig }).config;
      const names = config.getGlobalGuards().map((guard) => guard.constructor.name);
      const at = (name: string) => {
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
        return names.indexOf(name);
      };
      assert.ok(at('McpAuthGuard') < at('WorkspaceGuard') && at('WorkspaceGuard') < at('ScopeGuard'));
      assert.ok(at('ScopeGuard') < at('RateLimitGuard'), `order: ${names.join(' → ')}`);
    });

    it('authentication answers first: a request without a valid token is a 401, never a 429, and costs nothing', async () => {
      const token = await apps.token();
      await spend(2, () => rest(app, token, 'GET', '/v1/customers'));
      for (const headers of [{}, bearer('mcp_pat_' + 'x'.repeat(43))]) {
        const request = statelessRequest('tools/list');
        assert.equal((await post(app.mcpUrl, request.body, { ...request.headers, ...headers })).status, 401);
        assert.equal((await fetch(`${app.baseUrl}/v1/customers`, { headers })).status, 401);
      }
    });

    it('scope answers before the limit on REST: a route beyond the token scopes is a 403 and costs nothing', async () => {
      const token = await apps.token({ scopes: ['billing:read'] });
      for (let i = 0; i < 3; i++) {
        const { status } = await rest(app, token, 'POST', '/v1/customers', { name: 'No', email: `no-${i}@limits.test` });
        assert.equal(status, 403);
      }
      // The 403s cost nothing: the whole limit is still there.
      await spend(2, () => rest(app, token, 'GET', '/v1/customers'));
      assert.equal((await rest(app, token, 'GET', '/v1/customers')).status, 429);
      assert.equal((await rest(app, token, 'POST', '/v1/customers', { name: 'No', email: 'no@limits.test' })).status, 403);
    });
  });

  describe('per workspace', () => {
    let app: TestApp;
    before(async () => {
      app = await onRedis('workspace', { RATE_LIMIT_TOKEN_PER_MINUTE: '5', RATE_LIMIT_WORKSPACE_PER_MINUTE: '8' });
    });

    it('two tokens of one workspace share its limit; the refusal names the workspace', async () => {
      const admin = await apps.token();
      const accountant = await apps.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
      await spend(5, () => summary(app, admin));
      // Refused by the token limit: charged to neither bucket.
      assertMcpRefusal(await summary(app, admin, 'a6'), { id: 'a6', version: '2026-07-28', limit: 'token', cost: 1, per: 5 });

      await spend(3, () => rest(app, accountant, 'GET', '/v1/customers'));
      // The accountant's own token has 2 units left, the workspace none.
      const refused = assertMcpRefusal(await summary(app, accountant, 'b4'), {
        id: 'b4',
        version: '2026-07-28',
        limit: 'workspace',
        cost: 1,
        per: 8,
      });
      assert.equal(refused.data.workspace, 'demo');
      assert.match(refused.message, /^Rate limit exceeded for workspace "demo": 8 units per minute shared by all its tokens/);
      const overRest = await rest(app, accountant, 'GET', '/v1/customers');
      assert.equal(overRest.status, 429);
      assert.equal(overRest.body.limit, 'workspace');
      assert.equal(overRest.body.workspace, 'demo');
    });
  });

  describe('cost per method and tool', () => {
    let app: TestApp;
    before(async () => {
      app = await onRedis('cost', { RATE_LIMIT_TOKEN_PER_MINUTE: '12', RATE_LIMIT_WORKSPACE_PER_MINUTE: NO_WORKSPACE_LIMIT });
    });

    it('over MCP: a destructive call costs 10, a write 5, a read 1', async () => {
      const token = await apps.token();
      const cancel = await mcp(app, token, 'tools/call', {
        name: 'billing_invoice_cancel',
        arguments: { invoice_id: randomUUID(), reason: 'issued by mistake' },
      });
      assert.notEqual(cancel.status, 429, cancel.text);
      // 2 units left: a write (5) is refused, two reads (1 each) pass, the third is refused.
      const write = await mcp(
        app,
        token,
        'tools/call',
        { name: 'billing_customer_create', arguments: { name: 'X', email: 'x@limits.test' } },
        2,
      );
      assertMcpRefusal(write, { id: 2, version: '2026-07-28', limit: 'token', cost: 5, per: 12 });
      await spend(2, () => summary(app, token));
      assertMcpRefusal(await summary(app, token, 5), { id: 5, version: '2026-07-28', limit: 'token', cost: 1, per: 12 });
    });

    it('over REST: a route that is also a tool costs what the tool costs; other writes cost 5', async () => {
      const token = await apps.token();
      const cancel = await rest(app, token, 'POST', `/v1/invoices/${randomUUID()}/cancel`, { reason: 'issued by mistake' });
      assert.equal(cancel.status, 404, cancel.text);
      const write = await rest(app, token, 'POST', '/v1/customers', { name: 'X', email: 'x2@limits.test' });
      assert.equal(write.status, 429);
      assert.equal(write.body.cost, 5);
      await spend(2, () => rest(app, token, 'GET', '/v1/customers'));
      assert.equal((await rest(app, token, 'GET', '/v1/customers')).status, 429);
    });

    it('a task is charged once, when it is accepted: its run on a worker costs nothing', async () => {
      const token = await apps.token();
      // billing_statement_export as a task (the client declared the extension): a write, 5 units.
      const request = statelessRequest('tools/call', {
        name: 'billing_statement_export',
        arguments: { from: '2025-01-01', to: '2025-01-31' },
      });
      request.body.params._meta['io.modelcontextprotocol/clientCapabilities'] = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
      const created = await post(app.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
      assert.equal(created.status, 200, created.text);
      const taskId = created.body.result.taskId as string;
      assert.ok(taskId, created.text);
      // Followed in the database, not with tasks/get (each poll would cost a unit).
      const prisma = app.app.get(PrismaService);
      for (const started = Date.now(); ;) {
        const { rows } = await prisma.sql<{ status: string }>(Prisma.sql`SELECT status FROM mcp_tasks WHERE id = ${taskId}`);
        if (rows[0]?.status === 'completed') break;
        assert.ok(Date.now() - started < 30_000, `the task did not complete: ${rows[0]?.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // 12 - 5 = 7 units left: had the run been charged too (5 more), only 2 reads would pass.
      await spend(7, () => summary(app, token));
      assertMcpRefusal(await summary(app, token, 9), { id: 9, version: '2026-07-28', limit: 'token', cost: 1, per: 12 });
    });

    it('lists and discovery cost 1', async () => {
      const token = await apps.token();
      await spend(4, () => mcp(app, token, 'server/discover'));
      await spend(4, () => mcp(app, token, 'tools/list'));
      await spend(4, () => mcp(app, token, 'resources/list'));
      assert.equal((await mcp(app, token, 'prompts/list')).status, 429);
    });
  });

  describe('two instances sharing one Redis', () => {
    let one: TestApp;
    let two: TestApp;
    before(async () => {
      const env = { RATE_LIMIT_TOKEN_PER_MINUTE: '6', RATE_LIMIT_WORKSPACE_PER_MINUTE: NO_WORKSPACE_LIMIT };
      one = await onRedis('replicas', env);
      two = await onRedis('replicas', env);
    });

    it('hold ONE limit across both', async () => {
      assert.ok((storeOf(one) as RedisRateLimitStore).connected && (storeOf(two) as RedisRateLimitStore).connected);
      const token = await apps.token();
      await spend(6, (i) => (i % 2 ? summary(one, token) : rest(two, token, 'GET', '/v1/customers')));
      assert.equal((await summary(one, token)).status, 429);
      assert.equal((await rest(two, token, 'GET', '/v1/customers')).status, 429);
    });

    it('hold it under concurrent requests on both (atomic): exactly the limit passes', async () => {
      const token = await apps.token();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => summary(i % 2 ? one : two, token, i)));
      const statuses = answers.map((answer) => answer.status);
      assert.equal(statuses.filter((status) => status === 200).length, 6, statuses.join(','));
      assert.equal(statuses.filter((status) => status === 429).length, 14, statuses.join(','));
    });
  });

  describe('in memory when REDIS_URL is unset', () => {
    let one: TestApp;
    let two: TestApp;
    before(async () => {
      const env = { REDIS_URL: undefined, RATE_LIMIT_TOKEN_PER_MINUTE: '3', RATE_LIMIT_WORKSPACE_PER_MINUTE: NO_WORKSPACE_LIMIT };
      one = await apps.start(env);
      two = await apps.start(env);
    });

    it('counts in the process and enforces the limit', async () => {
      assert.ok(storeOf(one) instanceof MemoryRateLimitStore);
      const token = await apps.token();
      await spend(3, () => summary(one, token));
      assertMcpRefusal(await summary(one, token, 4), { id: 4, version: '2026-07-28', limit: 'token', cost: 1, per: 3 });
    });

    it('is one process only: another instance keeps its own count (what REDIS_URL fixes)', async () => {
      const token = await apps.token();
      await spend(3, () => summary(one, token));
      assert.equal((await summary(one, token)).status, 429);
      await spend(3, () => summary(two, token));
    });
  });

  describe('Redis unreachable', () => {
    let app: TestApp;
    before(async () => {
      const port = await closedPort();
      app = await apps.start({
        REDIS_URL: `redis://127.0.0.1:${port}`,
        RATE_LIMIT_KEY_PREFIX: `${RUN}-down`,
        RATE_LIMIT_TOKEN_PER_MINUTE: '3',
        RATE_LIMIT_WORKSPACE_PER_MINUTE: NO_WORKSPACE_LIMIT,
      });
    });

    it('boots and fails open: requests are served, and each instance still applies the limits with its own counters', async () => {
      const store = storeOf(app) as RedisRateLimitStore;
      assert.ok(store instanceof RedisRateLimitStore);
      assert.equal(store.connected, false);
      const token = await apps.token();
      await spend(3, () => summary(app, token));
      assertMcpRefusal(await summary(app, token, 4), { id: 4, version: '2026-07-28', limit: 'token', cost: 1, per: 3 });
    });
  });

  describe('RATE_LIMIT_DISABLED', () => {
    it('lets everything through', async () => {
      const app = await apps.start({ RATE_LIMIT_DISABLED: 'true', RATE_LIMIT_TOKEN_PER_MINUTE: '1', REDIS_URL: undefined });
      const token = await apps.token();
      await spend(5, () => summary(app, token));
    });
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
