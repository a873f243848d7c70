import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request } from 'express';
import { McpTaskRefused, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { APP_ROLE_SCOPES } from '../../src/app.scopes.js';
import { RequestContext } from '../../src/context/request-context.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { principalOf, requestWorkspace, setPrincipal, setRequestWorkspace } from '../../src/identity/request-principal.js';
import { WorkspaceResolver } from '../../src/identity/workspace.resolver.js';
import { BillingTaskCallers } from '../../src/tasks/billing-task.callers.js';
import { mintDemoToken } from '../support/billing-app.js';
import { createTestDatabase, prismaOn, type TestDatabase } from '../support/test-database.js';

/**
 * How a task of the billing app acts again as the person who asked, or refuses to
 * (`BillingTaskCallers`, the layer's `taskCallers`). The task store and queue are
 * @nest-mcp/prisma's, tested in that package.
 */
describe("BillingTaskCallers on the run's database (PostgreSQL of DATABASE_URL, else embedded)", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let prisma: PrismaService;
  let tokens: PersonalTokenService;
  let callers: BillingTaskCallers;
  const mcp = { path: '/mcp' } as ResolvedMcpOptions;

  before(async () => {
    database = await createTestDatabase();
    prisma = prismaOn(database.url);
    await seedDemo(prisma);
    tokens = new PersonalTokenService(prisma, APP_ROLE_SCOPES);
    callers = new BillingTaskCallers(prisma, tokens, new WorkspaceResolver(), mcp);
  });

  after(async () => {
    await prisma?.onApplicationShutdown();
    await database?.close();
  });

  /** What the guards leave on an MCP request of `token` acting in the demo workspace, and the context the middleware opened. */
  async function createdBy(token: string): Promise<{ caller: Record<string, unknown>; workspaceId?: string }> {
    const check = await tokens.check(token);
    assert.ok(check.ok);
    const request = { headers: { authorization: `Bearer ${token}` }, query: {}, route: { path: '/mcp' } } as unknown as Request;
    setPrincipal(request, check.principal);
    const demo = check.principal.memberships.find((m) => m.slug === 'demo')!;
    setRequestWorkspace(request, { id: demo.workspaceId, slug: demo.slug });
    return RequestContext.run({ channel: 'mcp', principal: check.principal, request }, () =>
      callers.capture(request, { tool: 'billing_statement_export' }),
    );
  }

  it('capture keeps who the caller is and the workspace, never the token', async () => {
    const token = await mintDemoToken(tokens);
    const captured = await createdBy(token);
    const demo = await prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    assert.equal(captured.workspaceId, demo.id);
    const stored = JSON.stringify(captured.caller);
    assert.equal(stored.includes(token), false, 'no token');
    assert.equal(stored.includes(token.slice(-12)), false, 'no part of it');
    assert.equal(captured.caller.kind, 'personal');
    assert.equal(captured.caller.channel, 'mcp');
    assert.deepEqual(captured.caller.workspace, { id: demo.id, slug: 'demo' });
  });

  it("with no workspace a guard resolved, capture takes the one the call's workspace_id argument names, never the request body", async () => {
    const demo = await prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    const second = await prisma.client.workspace.create({ data: { slug: `second-${randomUUID().slice(0, 8)}`, name: 'Second' } });
    const workspaces = [demo, second];
    const admin = await prisma.client.user.findUniqueOrThrow({ where: { email: 'admin@demo.test' } });
    const principal = {
      userId: admin.id,
      email: admin.email,
      tokenId: 'tok-several',
      kind: 'personal' as const,
      scopes: ['billing:read'],
      surfaces: ['mcp' as const],
      memberships: workspaces.map((w) => ({ workspaceId: w.id, slug: w.slug, role: 'admin' as const })),
    };
    // The body names the first workspace; the call (what the task is made of) the second.
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: { workspace_id: workspaces[0].id } } };
    const request = { headers: {}, query: {}, body } as unknown as Request;
    setPrincipal(request, principal);
    const capture = (args?: Record<string, unknown>) =>
      RequestContext.run({ channel: 'mcp', principal, request }, () =>
        callers.capture(request, { tool: 'billing_statement_export', ...(args ? { arguments: args } : {}) }),
      );
    assert.equal((await capture({ workspace_id: workspaces[1].id })).workspaceId, workspaces[1].id);
    assert.equal((await capture()).workspaceId, undefined, 'several memberships and none named: none');
  });

  it('actAs runs the work as the caller again: principal on the request, the request context of an MCP request, writes stamped mcp', async () => {
    const token = await mintDemoToken(tokens);
    const { caller } = await createdBy(token);
    const demo = await prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    const result = await callers.actAs(caller, async (request) => {
      const principal = principalOf(request);
      const state = RequestContext.current();
      const customer = await prisma.db.customer.create({
        data: { workspaceId: demo.id, name: 'Task customer', email: `task-${randomUUID()}@example.test` },
      });
      return { principal, state, workspace: requestWorkspace(request), header: request.headers['x-workspace-id'], customer };
    });
    assert.equal(result.principal?.email, 'admin@demo.test');
    assert.equal(result.principal?.kind, 'personal');
    assert.ok(result.principal?.memberships.some((m) => m.workspaceId === demo.id));
    assert.equal(result.state?.channel, 'mcp');
    assert.equal(result.state?.principal, result.principal);
    assert.deepEqual(result.workspace, { id: demo.id, slug: 'demo' });
    assert.equal(result.header, demo.id, 'the workspace guard resolves the same workspace');
    assert.equal(result.customer.createdVia, 'mcp');
  });

  it('a revoked personal token: actAs refuses without calling the work', async () => {
    const token = await mintDemoToken(tokens);
    const { caller } = await createdBy(token);
    const check = await tokens.check(token);
    assert.ok(check.ok);
    await RequestContext.run({ channel: 'system' }, () => tokens.revoke(check.principal.tokenId));
    let called = false;
    await assert.rejects(
      callers.actAs(caller, async () => {
        called = true;
      }),
      (error: Error) => error instanceof McpTaskRefused && /revoked/.test(error.message),
    );
    assert.equal(called, false);
  });

  it('an expired token, or a membership removed since: actAs refuses', async () => {
    const expiring = await mintDemoToken(tokens, { expiresInMs: 1000 });
    const { caller } = await createdBy(expiring);
    await sleep(1100);
    await assert.rejects(
      callers.actAs(caller, async () => undefined),
      (error: Error) => error instanceof McpTaskRefused && /expired/.test(error.message),
    );

    const user = await prisma.client.user.create({ data: { email: `task-member-${randomUUID()}@demo.test`, name: 'Member' } });
    const demo = await prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    await prisma.client.membership.create({ data: { userId: user.id, workspaceId: demo.id, role: 'accountant' } });
    const member = await RequestContext.run({ channel: 'system' }, () =>
      tokens.mint({ email: user.email, scopes: ['billing:read', 'billing:write'], surfaces: ['mcp'] }),
    );
    const captured = await createdBy(member.token);
    await prisma.client.membership.delete({ where: { userId_workspaceId: { userId: user.id, workspaceId: demo.id } } });
    await assert.rejects(
      callers.actAs(captured.caller, async () => undefined),
      (error: Error) => error instanceof McpTaskRefused && /no longer a member/.test(error.message),
    );
  });

  it("a JWT caller acts until its token's exp, while its subject stays linked to the user", async () => {
    const issuer = 'https://issuer.test';
    const subject = `sub|${randomUUID()}`;
    const admin = await prisma.client.user.findUniqueOrThrow({
      where: { email: 'admin@demo.test' },
      include: { memberships: { include: { workspace: true } } },
    });
    await prisma.client.externalIdentity.create({ data: { issuer, subject, userId: admin.id, linkedBy: 'operator' } });
    // The guard verified the token; capture only reads its `exp` (so the signature does not matter here).
    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const jwt = (exp: number) => `${segment({ alg: 'RS256' })}.${segment({ iss: issuer, sub: subject, exp })}.c2ln`;
    const captureWith = (token: string) => {
      const principal = {
        userId: admin.id,
        email: admin.email,
        tokenId: `jwt:${issuer}#${encodeURIComponent(subject)}#jti-1`,
        callerId: `jwt:${issuer}#${encodeURIComponent(subject)}`,
        kind: 'jwt' as const,
        scopes: ['billing:read'],
        surfaces: ['mcp' as const],
        memberships: admin.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
      };
      const request = { headers: { authorization: `Bearer ${token}` }, query: {} } as unknown as Request;
      setPrincipal(request, principal);
      return RequestContext.run({ channel: 'mcp', principal, request }, () =>
        callers.capture(request, { tool: 'billing_statement_export' }),
      );
    };

    const live = await captureWith(jwt(Math.floor(Date.now() / 1000) + 600));
    assert.equal(JSON.stringify(live.caller).includes('c2ln'), false, 'no token');
    assert.equal(live.workspaceId, admin.memberships[0].workspaceId, 'the only membership');
    const acted = await callers.actAs(live.caller, async (request) => principalOf(request));
    assert.equal(acted?.kind, 'jwt');
    assert.equal(acted?.userId, admin.id);
    assert.deepEqual(acted?.scopes, ['billing:read'], "the JWT's scopes, kept from creation");

    const expired = await captureWith(jwt(Math.floor(Date.now() / 1000) - 1));
    await assert.rejects(
      callers.actAs(expired.caller, async () => undefined),
      (error: Error) => error instanceof McpTaskRefused && /expired/.test(error.message),
    );
    await prisma.client.externalIdentity.delete({ where: { issuer_subject: { issuer, subject } } });
    await assert.rejects(
      callers.actAs(live.caller, async () => undefined),
      (error: Error) => error instanceof McpTaskRefused && /no longer linked/.test(error.message),
    );
  });

  it('a caller that cannot be read back is refused', async () => {
    await assert.rejects(
      callers.actAs({ v: 1, kind: 'personal', userId: 'x' }, async () => undefined),
      (error: Error) => error instanceof McpTaskRefused,
    );
  });
});
