import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RequestContext } from '../../src/context/request-context.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { callStateless, envelopeOf } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

const mcp = (
  t: BillingTestApp,
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => callStateless(t.mcpUrl, method, params, { token, headers });

const toolNames = (body: { result: { tools: Array<{ name: string }> } }) => body.result.tools.map((tool) => tool.name);

/**
 * A role refusal over MCP (docs/protocol.md, "Refusals"): no HTTP error and no scope challenge (a
 * new token would not help), but a tool result with `isError: true` the model can read, in the
 * text block and as structuredContent alike.
 */
function assertRefusedByRole(answer: { status: number; headers: Headers; body: any }, scopes: string) {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.error, undefined);
  assert.equal(answer.body.result.isError, true);
  assert.equal(answer.headers.get('www-authenticate'), null, 'a role refusal is no scope challenge: a new token would not help');
  const envelope = envelopeOf(answer.body);
  assert.equal(envelope.ok, false);
  assert.equal(envelope.status, 'failed');
  assert.deepEqual(envelope.errors, [
    { code: 'forbidden_by_role', message: `Your role does not allow ${scopes} in this workspace; ask a workspace admin`, retryable: false },
  ]);
  assert.deepEqual(answer.body.result.structuredContent, envelope);
}

describe('identity: tokens, scopes, roles, workspaces (real database)', () => {
  let t: BillingTestApp;
  const invalidTokenChallenge = (reason: string) =>
    `Bearer error="invalid_token", error_description="${reason}", resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`;
  before(async () => {
    t = await startBillingApp();
  });
  after(() => t.close());

  describe('authentication', () => {
    it('answers a request without a token with 401 and the resource-metadata challenge, server/discover included', async () => {
      const { status, headers, body } = await callStateless(t.mcpUrl, 'server/discover');
      assert.equal(status, 401);
      assert.equal(headers.get('www-authenticate'), `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`);
      assert.equal(body.id, 1);
      assert.match(body.error.message, /Authentication required/);
    });

    it('publishes the protected-resource metadata', async () => {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const response = await fetch(`${t.baseUrl}${path}`);
        assert.equal(response.status, 200);
        const metadata = (await response.json()) as Record<string, unknown>;
        assert.equal(metadata.resource, `${t.baseUrl}/mcp`);
        assert.deepEqual(metadata.authorization_servers, []);
        assert.deepEqual(metadata.bearer_methods_supported, ['header']);
        assert.deepEqual(metadata.scopes_supported, ['billing:admin', 'billing:read', 'billing:write']);
      }
    });

    it('accepts a personal token as Bearer or as X-API-Key', async () => {
      const token = await t.token();
      assert.equal((await mcp(t, token, 'tools/list')).status, 200);
      const viaApiKey = await mcp(t, undefined, 'tools/list', {}, { 'x-api-key': token });
      assert.equal(viaApiKey.status, 200);
    });

    for (const [label, mint, reason] of [
      ['an expired token', { expiresInMs: 1 }, /expired/],
      ['an unknown token', undefined, /not valid/],
    ] as const) {
      it(`refuses ${label} with 401, says why, and the challenge says invalid_token (RFC 6750 §3)`, async () => {
        const token = mint ? await t.token(mint) : 'mcp_pat_' + 'x'.repeat(43);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const { status, body, headers } = await mcp(t, token, 'tools/list');
        assert.equal(status, 401);
        assert.match(body.error.message, reason);
        assert.equal(headers.get('www-authenticate'), invalidTokenChallenge(body.error.message));
        const rest = await fetch(`${t.baseUrl}/v1/customers`, { headers: bearer(token) });
        assert.equal(rest.status, 401);
        assert.equal(rest.headers.get('www-authenticate'), invalidTokenChallenge(((await rest.json()) as { message: string }).message));
      });
    }

    it('refuses a revoked token, with the invalid_token challenge', async () => {
      const token = await t.token();
      assert.equal((await mcp(t, token, 'tools/list')).status, 200);
      const record = await t.prisma.client.accessToken.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
      // Revoked through the app, as the token CLI does: this replica forgets it at once. (A row changed
      // by another process is heard through identity_changed, within the cache's 1 s: under load the
      // next request can come first, so that path is not asserted here.)
      await t.app.get(PersonalTokenService).revoke(record.id);
      const { status, body, headers } = await mcp(t, token, 'tools/list');
      assert.equal(status, 401);
      assert.match(body.error.message, /revoked/);
      assert.equal(headers.get('www-authenticate'), invalidTokenChallenge(body.error.message));
    });

    it('stores only a hash of the token, never the token', async () => {
      const token = await t.token();
      const rows = await t.prisma.client.accessToken.findMany();
      assert.ok(rows.length > 0);
      assert.ok(rows.every((row) => row.tokenHash !== token && !JSON.stringify(row).includes(token)));
    });

    it('guards the REST API with the same tokens; no token sent, no error attribute in the challenge', async () => {
      const anonymous = await fetch(`${t.baseUrl}/v1/customers/00000000-0000-0000-0000-000000000000`);
      assert.equal(anonymous.status, 401);
      assert.equal(
        anonymous.headers.get('www-authenticate'),
        `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`,
      );
    });
  });

  describe('scopes and roles', () => {
    it('lists only the tools the token scopes AND the role allow', async () => {
      const readOnlyAdmin = await t.token({ scopes: ['billing:read'] });
      const writingViewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read', 'billing:write'] });
      const accountant = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
      const admin = await t.token();
      assert.ok(!toolNames((await mcp(t, readOnlyAdmin, 'tools/list')).body).includes('billing_customer_create'));
      assert.ok(!toolNames((await mcp(t, writingViewer, 'tools/list')).body).includes('billing_customer_create'));
      assert.ok(toolNames((await mcp(t, accountant, 'tools/list')).body).includes('billing_customer_create'));
      assert.ok(toolNames((await mcp(t, admin, 'tools/list')).body).includes('billing_customer_create'));
      assert.ok(toolNames((await mcp(t, readOnlyAdmin, 'tools/list')).body).includes('server_status'));
    });

    it('refuses a call beyond the token scopes with 403 insufficient_scope naming the scopes it has plus the missing one', async () => {
      const token = await t.token({ scopes: ['billing:read'] });
      const { status, headers, body } = await mcp(t, token, 'tools/call', {
        name: 'billing_customer_create',
        arguments: { name: 'X', email: 'x@x.test' },
      });
      assert.equal(status, 403);
      assert.equal(
        headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="billing:read billing:write", resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`,
      );
      assert.match(body.error.message, /needs billing:write/);
    });

    it('refuses a call the role does not allow even when the token has the scope', async () => {
      const token = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read', 'billing:write'] });
      const denied = { method: 'tools/call', target: 'billing_customer_create', outcome: 'denied', errorCode: 'http_403' };
      const deniedBefore = await t.prisma.client.mcpAuditEvent.count({ where: denied });
      const answer = await mcp(t, token, 'tools/call', {
        name: 'billing_customer_create',
        arguments: { name: 'X', email: 'x@x.test' },
      });
      assertRefusedByRole(answer, 'billing:write');
      assert.equal(await t.prisma.client.customer.count({ where: { email: 'x@x.test' } }), 0);
      assert.equal(await t.prisma.client.mcpAuditEvent.count({ where: denied }), deniedBefore + 1, 'the refusal is audited as denied');
    });

    it('names the role first when both the role and the token lack the scope (no challenge: a tool error over MCP, a plain 403 over REST)', async () => {
      const token = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read'] });
      const answer = await mcp(t, token, 'tools/call', {
        name: 'billing_customer_create',
        arguments: { name: 'X', email: 'x@x.test' },
      });
      assertRefusedByRole(answer, 'billing:write');
      assert.equal(await t.prisma.client.customer.count({ where: { email: 'x@x.test' } }), 0);
      const response = await fetch(`${t.baseUrl}/v1/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify({ name: 'Z', email: 'z@z.test' }),
      });
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('www-authenticate'), null);
      assert.deepEqual(await response.json(), {
        statusCode: 403,
        error: 'forbidden_by_role',
        code: 'forbidden_by_role',
        message: 'Your role does not allow billing:write in this workspace; ask a workspace admin',
      });
    });

    it('applies the same rules to REST', async () => {
      const token = await t.token({ scopes: ['billing:read'] });
      const response = await fetch(`${t.baseUrl}/v1/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify({ name: 'Y', email: 'y@y.test' }),
      });
      assert.equal(response.status, 403);
      assert.match(response.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    });
  });

  describe('workspaces', () => {
    let otherToken: string;
    let otherCustomerId: string;
    before(async () => {
      await RequestContext.run({ channel: 'system' }, async () => {
        const workspace = await t.prisma.client.workspace.create({ data: { slug: 'other', name: 'Other Co' } });
        const user = await t.prisma.client.user.create({ data: { email: 'owner@other.test', name: 'Other Owner' } });
        await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
      });
      otherToken = await t.token({ email: 'owner@other.test', workspaceSlug: 'other' });
      const created = await mcp(t, otherToken, 'tools/call', {
        name: 'billing_customer_create',
        arguments: { name: 'Secret Client', email: 'secret@other.test' },
      });
      otherCustomerId = envelopeOf(created.body).data.id;
    });

    it("creates in the caller's workspace and keeps it invisible to others (REST)", async () => {
      const demoToken = await t.token();
      const response = await fetch(`${t.baseUrl}/v1/customers/${otherCustomerId}`, { headers: bearer(demoToken) });
      assert.equal(response.status, 404);
      const own = await fetch(`${t.baseUrl}/v1/customers/${otherCustomerId}`, { headers: bearer(otherToken) });
      assert.equal(own.status, 200);
    });

    it('refuses to act in a workspace the caller does not belong to, without revealing it exists', async () => {
      const demoAdmin = await t.token({ workspaceSlug: undefined });
      for (const named of ['other', 'no-such-workspace']) {
        const { body } = await mcp(t, demoAdmin, 'tools/call', {
          name: 'billing_customer_create',
          arguments: { name: 'Z', email: 'z@z.test', workspace_id: named },
        });
        assert.equal(body.result.isError, true);
        assert.equal(envelopeOf(body).errors[0].message, `Workspace "${named}" was not found among your workspaces`);
      }
      const fromHeader = await fetch(`${t.baseUrl}/v1/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(demoAdmin), 'x-workspace-id': 'other' },
        body: JSON.stringify({ name: 'Z', email: 'z@z.test' }),
      });
      assert.equal(fromHeader.status, 403);
      assert.equal(await t.prisma.client.customer.count({ where: { email: 'z@z.test' } }), 0);
    });

    it('keeps a workspace-bound token in its workspace', async () => {
      const { body } = await mcp(t, otherToken, 'tools/call', {
        name: 'billing_customer_create',
        arguments: { name: 'W', email: 'w@w.test', workspace_id: 'demo' },
      });
      assert.equal(body.result.isError, true);
      assert.match(envelopeOf(body).errors[0].message, /bound to workspace "other"/);
    });

    it('resolves the workspace from X-Workspace-Id and ?workspace_id= for an unbound token', async () => {
      const unbound = await t.token({ workspaceSlug: undefined });
      const viaHeader = await mcp(
        t,
        unbound,
        'tools/call',
        { name: 'billing_customer_create', arguments: { name: 'H', email: 'h@demo.test' } },
        { 'x-workspace-id': 'demo' },
      );
      assert.equal(envelopeOf(viaHeader.body).ok, true);
      const viaQuery = await callStateless(
        `${t.mcpUrl}?workspace_id=demo`,
        'tools/call',
        { name: 'billing_customer_create', arguments: { name: 'Q', email: 'q@demo.test' } },
        { token: unbound },
      );
      assert.equal(envelopeOf(viaQuery.body).ok, true);
    });
  });
});
