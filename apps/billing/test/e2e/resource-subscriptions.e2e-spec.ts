import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MCP_SESSION_STORE, type McpSessionStore } from '@nest-mcp/core/extensions';
import { post } from '@nest-mcp/core/testing';
import { RequestContext } from '../../src/context/request-context.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';

/**
 * `resources/subscribe` in stream mode applies exactly the check of `resources/read`: a token bound
 * to one workspace cannot subscribe to (and so hear about changes of) another workspace's invoice.
 */
const HANDSHAKE = '2025-06-18';

describe('billing resource subscriptions (stream mode)', () => {
  let t: BillingTestApp;
  let demo: string;
  let acme: string;
  let demoInvoiceUri: string;

  before(async () => {
    t = await withEnv({ MCP_STREAMS: 'true' }, () => startBillingApp());
    demo = await t.token();
    await RequestContext.run({ channel: 'system' }, async () => {
      const workspace = await t.prisma.client.workspace.create({ data: { slug: 'acme', name: 'Acme' } });
      const user = await t.prisma.client.user.create({ data: { email: 'owner@acme.test', name: 'Acme Owner' } });
      await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
    });
    acme = await t.token({ email: 'owner@acme.test', workspaceSlug: 'acme' });
    const rest = async (path: string, body: unknown) => {
      const response = await fetch(`${t.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(demo) },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 201, await response.clone().text());
      return (await response.json()) as { id: string };
    };
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const customer = await rest('/v1/customers', { name: 'Demo Client', email: 'client@demo-subscriptions.test' });
    const invoice = await rest('/v1/invoices', {
      customer_id: customer.id,
      currency: 'MXN',
      issue_date: day(-1),
      due_date: day(29),
      lines: [{ description: 'Consulting', quantity: 1, unit_price_minor: 100_000 }],
    });
    demoInvoiceUri = `billing://invoices/${invoice.id}`;
  });
  after(async () => {
    await t?.close();
  });

  /** `initialize` with the token: the session id. */
  const openSession = async (token: string) => {
    const answer = await post(
      t.mcpUrl,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: HANDSHAKE, capabilities: {}, clientInfo: { name: 'subscriber', version: '1' } },
      },
      { 'mcp-protocol-version': HANDSHAKE, ...bearer(token) },
    );
    assert.equal(answer.status, 200, answer.text);
    return answer.headers.get('mcp-session-id')!;
  };
  const request = (token: string, session: string, method: string, params: Record<string, unknown>) =>
    post(
      t.mcpUrl,
      { jsonrpc: '2.0', id: 1, method, params },
      { 'mcp-protocol-version': HANDSHAKE, 'mcp-session-id': session, ...bearer(token) },
    );

  it('a token bound to workspace acme cannot subscribe to a demo invoice: it answers what reading it answers', async () => {
    const session = await openSession(acme);
    const read = await request(acme, session, 'resources/read', { uri: demoInvoiceUri });
    assert.equal(read.body.error?.code, -32602, read.text);
    const subscribed = await request(acme, session, 'resources/subscribe', { uri: demoInvoiceUri });
    assert.equal(subscribed.status, read.status);
    assert.deepEqual(subscribed.body, read.body);
    assert.deepEqual(await t.app.get<McpSessionStore>(MCP_SESSION_STORE).subscribersOf(demoInvoiceUri), []);
  });

  it('a token of workspace demo subscribes to the same invoice', async () => {
    const session = await openSession(demo);
    const subscribed = await request(demo, session, 'resources/subscribe', { uri: demoInvoiceUri });
    assert.deepEqual(subscribed.body.result, {}, subscribed.text);
    assert.deepEqual(await t.app.get<McpSessionStore>(MCP_SESSION_STORE).subscribersOf(demoInvoiceUri), [session]);
  });
});
