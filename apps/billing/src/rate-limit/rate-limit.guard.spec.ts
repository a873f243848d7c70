import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpStatus, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../identity/principal.js';
import { setPrincipal, setRequestWorkspace } from '../identity/request-principal.js';
import { WorkspaceResolver } from '../identity/workspace.resolver.js';
import { McpProtocolError } from '@nest-mcp/core';
import { attachMcpMessage, type McpRegistry } from '@nest-mcp/core/extensions';
import { RateLimitCostPolicy } from './rate-limit-cost.policy.js';
import { rateLimitConfigFromEnv } from './rate-limit.config.js';
import { RATE_LIMIT_EXCEEDED_CODE, RateLimitExceededException } from './rate-limit.exception.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import type { RateLimitBucket, RateLimitDecision, RateLimitStore } from './store/rate-limit.store.js';

class RecordingStore implements RateLimitStore {
  calls: Array<{ buckets: readonly RateLimitBucket[]; cost: number }> = [];
  next: RateLimitDecision = { allowed: true };
  consume(buckets: readonly RateLimitBucket[], cost: number): Promise<RateLimitDecision> {
    this.calls.push({ buckets, cost });
    return Promise.resolve(this.next);
  }
}

const registry = { tool: () => undefined } as unknown as McpRegistry;
const principal = (extra: Partial<Principal> = {}): Principal => ({
  userId: 'u1',
  email: 'a@demo.test',
  tokenId: 'tok1',
  kind: 'personal',
  surfaces: ['mcp', 'api'],
  scopes: [],
  workspaceId: 'ws1',
  memberships: [
    { workspaceId: 'ws1', slug: 'demo', role: 'admin' },
    { workspaceId: 'ws2', slug: 'globex', role: 'admin' },
  ],
  ...extra,
});

function setup(env: NodeJS.ProcessEnv = {}) {
  const config = rateLimitConfigFromEnv({ RATE_LIMIT_TOKEN_PER_MINUTE: '60', RATE_LIMIT_WORKSPACE_PER_MINUTE: '300', ...env });
  const store = new RecordingStore();
  const guard = new RateLimitGuard(config, store, new RateLimitCostPolicy(config, registry), new WorkspaceResolver());
  return { guard, store };
}

/** `mcp: true`: a POST the MCP body reader read. */
function http({ mcp, ...req }: Partial<Request> & { mcp?: boolean } & Record<string, unknown>) {
  const headers: Record<string, string> = {};
  const request = { headers: {}, query: {}, method: 'POST', path: '/mcp', ...req } as unknown as Request;
  if (mcp) attachMcpMessage(request, request.body, registry);
  const response = { setHeader: (name: string, value: string) => (headers[name] = value) };
  const context = {
    getHandler: () => () => undefined,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { request, context, headers };
}

const mcpBody = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };

describe('RateLimitGuard', () => {
  it('charges the token and the workspace of an authenticated request', async () => {
    const { guard, store } = setup();
    const { request, context } = http({ mcp: true, body: mcpBody });
    setPrincipal(request, principal());
    assert.equal(await guard.canActivate(context), true);
    assert.deepEqual(store.calls, [
      {
        cost: 1,
        buckets: [
          { key: 'rl:token:tok1', limit: 60, periodMs: 60_000 },
          { key: 'rl:workspace:ws1', limit: 300, periodMs: 60_000 },
        ],
      },
    ]);
  });

  it('lets through, uncharged: no principal, RATE_LIMIT_DISABLED, a zero cost', async () => {
    const cases = [
      { ...setup(), ...http({ body: mcpBody, mcp: true }), principal: undefined },
      { ...setup({ RATE_LIMIT_DISABLED: 'true' }), ...http({ body: mcpBody, mcp: true }), principal: principal() },
      { ...setup({ RATE_LIMIT_COST_DEFAULT: '0' }), ...http({ body: mcpBody, mcp: true }), principal: principal() },
    ];
    for (const { guard, store, request, context, principal: caller } of cases) {
      if (caller) setPrincipal(request, caller);
      assert.equal(await guard.canActivate(context), true);
      assert.equal(store.calls.length, 0);
    }
  });

  it('finds the workspace the way the workspace guard will: resolved, argument, header, only membership; none when ambiguous or foreign', async () => {
    const keys = async (req: Record<string | symbol, unknown>, caller: Principal, resolved?: { id: string; slug: string }) => {
      const { guard, store } = setup();
      const { request, context } = http(req);
      setPrincipal(request, caller);
      if (resolved) setRequestWorkspace(request, resolved);
      await guard.canActivate(context);
      return store.calls[0].buckets.map((bucket) => bucket.key);
    };
    const unbound = principal({ workspaceId: undefined });
    const call = (args: object) => ({
      mcp: true,
      body: { ...mcpBody, method: 'tools/call', params: { name: 'x', arguments: args } },
    });
    assert.deepEqual(await keys({ body: {}, method: 'GET' }, unbound, { id: 'ws9', slug: 'nine' }), ['rl:token:tok1', 'rl:workspace:ws9']);
    assert.deepEqual(await keys(call({ workspace_id: 'globex' }), unbound), ['rl:token:tok1', 'rl:workspace:ws2']);
    assert.deepEqual(await keys({ ...call({}), headers: { 'x-workspace-id': 'demo' } }, unbound), ['rl:token:tok1', 'rl:workspace:ws1']);
    assert.deepEqual(
      await keys(call({}), principal({ workspaceId: undefined, memberships: [{ workspaceId: 'ws2', slug: 'globex', role: 'viewer' }] })),
      ['rl:token:tok1', 'rl:workspace:ws2'],
    );
    assert.deepEqual(await keys(call({}), unbound), ['rl:token:tok1']);
    assert.deepEqual(await keys(call({ workspace_id: 'not-mine' }), unbound), ['rl:token:tok1']);
  });

  it('refuses over MCP with a JSON-RPC protocol error: 429, -32000, Retry-After, data naming the limit', async () => {
    const { guard, store } = setup();
    store.next = { allowed: false, bucket: 1, retryAfterMs: 11_200 };
    const { request, context } = http({ mcp: true, body: mcpBody });
    setPrincipal(request, principal());
    await assert.rejects(guard.canActivate(context), (error: unknown) => {
      assert.ok(error instanceof McpProtocolError);
      assert.equal(error.httpStatus, HttpStatus.TOO_MANY_REQUESTS);
      assert.equal(error.code, RATE_LIMIT_EXCEEDED_CODE);
      assert.equal(
        error.message,
        'Rate limit exceeded for workspace "demo": 300 units per minute shared by all its tokens (tools/list costs 1); retry after 12 s',
      );
      assert.deepEqual(error.data, { limit: 'workspace', workspace: 'demo', unitsPerMinute: 300, cost: 1, retryAfterSeconds: 12 });
      assert.deepEqual(error.headers, { 'Retry-After': '12' });
      return true;
    });
  });

  it('refuses over REST with a 429 HttpException and sets Retry-After (at least 1 s)', async () => {
    const { guard, store } = setup();
    store.next = { allowed: false, bucket: 0, retryAfterMs: 3 };
    const { request, context, headers } = http({ method: 'GET', path: '/v1/customers', body: {} });
    setPrincipal(request, principal());
    await assert.rejects(guard.canActivate(context), (error: unknown) => {
      assert.ok(error instanceof RateLimitExceededException);
      assert.equal(error.getStatus(), 429);
      assert.deepEqual(error.getResponse(), {
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Rate limit exceeded for this token: 60 units per minute (GET /v1/customers costs 1); retry after 1 s',
        limit: 'token',
        unitsPerMinute: 60,
        cost: 1,
        retryAfterSeconds: 1,
      });
      return true;
    });
    assert.deepEqual(headers, { 'Retry-After': '1' });
  });
});
