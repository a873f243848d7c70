import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request } from 'express';
import { McpTaskRefused, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { mcpPrincipalOf, setMcpPrincipal, type McpPrincipal } from '../principal/mcp-principal.js';
import { McpAuthTaskCallers } from './mcp-auth-task.callers.js';

const callers = new McpAuthTaskCallers({ path: '/mcp' } as ResolvedMcpOptions);
const principal = (expiresAt?: number): McpPrincipal => ({
  kind: 'jwt',
  issuer: 'https://idp.example.com',
  subject: 'ada',
  tokenId: 'jwt:https://idp.example.com#ada',
  callerId: 'jwt:https://idp.example.com#ada',
  scopes: ['notes:read'],
  surfaces: ['mcp'],
  ...(expiresAt !== undefined ? { expiresAt } : {}),
  user: { id: 7, greet: () => 'not JSON' },
});
const requestOf = (who?: McpPrincipal) => {
  const request = {} as Request;
  if (who) setMcpPrincipal(request, who);
  return request;
};

describe('McpAuthTaskCallers', () => {
  it('captures the principal as JSON, without the application user', async () => {
    const { caller } = await callers.capture(requestOf(principal(Date.now() + 60_000)));
    assert.equal(caller.subject, 'ada');
    assert.deepEqual(caller.scopes, ['notes:read']);
    assert.equal('user' in caller, false);
    assert.deepEqual(JSON.parse(JSON.stringify(caller)), caller);
  });

  it('refuses to capture a request nobody authenticated', async () => {
    await assert.rejects(callers.capture(requestOf()), McpTaskRefused);
  });

  it('runs the work as the stored principal, on a request of the MCP endpoint', async () => {
    const { caller } = await callers.capture(requestOf(principal(Date.now() + 60_000)));
    const seen = await callers.actAs(caller, async (request) => ({ who: mcpPrincipalOf(request)?.subject, route: request.route?.path }));
    assert.deepEqual(seen, { who: 'ada', route: '/mcp' });
  });

  it('refuses a run once the token that started it has expired, without running the work', async () => {
    const { caller } = await callers.capture(requestOf(principal(Date.now() + 60_000)));
    let ran = false;
    await assert.rejects(
      callers.actAs({ ...caller, expiresAt: Date.now() - 1 }, async () => (ran = true)),
      (error: unknown) => error instanceof McpTaskRefused && /expired/.test(error.message),
    );
    assert.equal(ran, false);
  });
});
