import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RequestContext } from '../../src/context/request-context.js';
import { rawRequest } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * The public URL (OAuth `resource`, challenge URLs, approval links) is configuration fixed at
 * boot: PUBLIC_URL, else the address the server is bound to. Never the request's Host, and every
 * route (not only /mcp) checks Host. The test apps listen on 127.0.0.1 (a loopback connection).
 */

const FORGED_LOCAL_HOST = 'localhost:1';

function get(t: BillingTestApp, path: string, headers: Record<string, string>) {
  return rawRequest(`${t.baseUrl}${path}`, { method: 'GET', headers });
}

async function pendingApprovalId(t: BillingTestApp): Promise<string> {
  const admin = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'admin@demo.test' } });
  const workspace = await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
  // Awaited inside the context: a Prisma query runs when awaited, and the channel stamp needs the context.
  const row = await RequestContext.run(
    { channel: 'system' },
    async () =>
      await t.prisma.client.mcpApproval.create({
        data: {
          workspaceId: workspace.id,
          requestedById: admin.id,
          requestedByTokenId: 'test',
          tool: 'billing_invoice_cancel',
          arguments: { invoice_id: '00000000-0000-4000-8000-000000000000', reason: 'test' },
          argumentsHash: 'test',
          expiresAt: new Date(Date.now() + 600_000),
        },
      }),
  );
  return row.id;
}

describe('public URL without PUBLIC_URL: the bound address, never the Host header', () => {
  let t: BillingTestApp;
  let token: string;
  const saved = process.env.PUBLIC_URL;
  before(async () => {
    delete process.env.PUBLIC_URL;
    t = await startBillingApp();
    token = await t.token();
  });
  after(async () => {
    await t.close();
    if (saved !== undefined) process.env.PUBLIC_URL = saved;
  });

  it('publishes the bound address as the protected-resource `resource`, whatever Host the request names', async () => {
    const answer = await get(t, '/.well-known/oauth-protected-resource', { host: FORGED_LOCAL_HOST });
    assert.equal(answer.status, 200);
    assert.equal(JSON.parse(answer.text).resource, `${t.baseUrl}/mcp`);
  });

  it('names the bound address in the 401 challenge of /mcp and REST, whatever Host the request names', async () => {
    const expected = `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`;
    const mcp = await rawRequest(t.mcpUrl, {
      headers: { host: FORGED_LOCAL_HOST, 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
      chunks: [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
    });
    assert.equal(mcp.status, 401);
    assert.equal(mcp.headers['www-authenticate'], expected);
    const rest = await get(t, '/v1/customers', { host: FORGED_LOCAL_HOST });
    assert.equal(rest.status, 401);
    assert.equal(rest.headers['www-authenticate'], expected);
  });

  it('names the bound address in an approval link, whatever Host the request names', async () => {
    const id = await pendingApprovalId(t);
    const answer = await get(t, `/v1/approvals/${id}`, { host: FORGED_LOCAL_HOST, ...bearer(token) });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(JSON.parse(answer.text).url, `${t.baseUrl}/admin/approvals/${id}`);
  });

  it('refuses a non-local Host on a loopback connection on every route with 403, not only /mcp; /health is exempt', async () => {
    for (const path of ['/v1/customers', '/.well-known/oauth-protected-resource', '/docs', '/admin/login']) {
      const answer = await get(t, path, { host: 'evil.example', ...bearer(token) });
      assert.equal(answer.status, 403, `${path}: ${answer.text}`);
      assert.match(JSON.parse(answer.text).message, /Host "evil\.example" is not allowed/);
    }
    assert.equal((await get(t, '/health/live', { host: 'evil.example' })).status, 200);
    assert.equal(
      (await get(t, '/v1/customers', { host: FORGED_LOCAL_HOST, ...bearer(token) })).status,
      200,
      'loopback names stay accepted',
    );
  });
});

describe('public URL from PUBLIC_URL: fixed, and the only name the server answers to', () => {
  const PUBLIC = 'https://billing.example.test';
  let t: BillingTestApp;
  let token: string;
  const saved = process.env.PUBLIC_URL;
  before(async () => {
    process.env.PUBLIC_URL = `${PUBLIC}/`;
    t = await startBillingApp();
    token = await t.token();
  });
  after(async () => {
    await t.close();
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it("refuses REST, /.well-known, /docs and /mcp with a Host that is not PUBLIC_URL's (403); accepts PUBLIC_URL's host", async () => {
    for (const path of ['/v1/customers', '/.well-known/oauth-protected-resource', '/docs']) {
      const refused = await get(t, path, { host: 'evil.example', ...bearer(token) });
      assert.equal(refused.status, 403, `${path}: ${refused.text}`);
      assert.match(JSON.parse(refused.text).message, /Host "evil\.example" is not allowed/);
    }
    const mcp = await rawRequest(t.mcpUrl, {
      headers: { host: 'evil.example', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18', ...bearer(token) },
      chunks: [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
    });
    assert.equal(mcp.status, 403);
    assert.equal(JSON.parse(mcp.text).error.code, -32600);
    assert.equal((await get(t, '/v1/customers', { host: 'billing.example.test', ...bearer(token) })).status, 200);
    assert.equal((await get(t, '/health/ready', { host: '10.1.2.3:3000' })).status, 200, 'probes by IP still work');
  });

  it('publishes PUBLIC_URL as `resource`, in the challenge and in approval links, whatever Host the request names', async () => {
    const metadata = await get(t, '/.well-known/oauth-protected-resource', { host: FORGED_LOCAL_HOST });
    assert.equal(JSON.parse(metadata.text).resource, `${PUBLIC}/mcp`);
    const challenge = await get(t, '/v1/customers', { host: FORGED_LOCAL_HOST });
    assert.equal(challenge.headers['www-authenticate'], `Bearer resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource"`);
    const id = await pendingApprovalId(t);
    const approval = await get(t, `/v1/approvals/${id}`, { host: FORGED_LOCAL_HOST, ...bearer(token) });
    assert.equal(JSON.parse(approval.text).url, `${PUBLIC}/admin/approvals/${id}`);
  });
});
