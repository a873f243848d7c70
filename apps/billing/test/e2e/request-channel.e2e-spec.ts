import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { callTool, statelessRequest, rawRequest } from '@nest-mcp/core/testing';
import { PanelVisitor, agentCall, csrfOf, setPanelPassword, unpaidInvoice } from '../support/panel.js';

/**
 * The channel is read from the matched route, never the raw URL: `created_via` / `updated_via` and the audit channel name the route that served
 * the request, however its path was spelled (Express routing ignores case and the fragment).
 */
describe('request channel: decided by the route that matched', () => {
  let t: BillingTestApp;
  let token: string;

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
  });
  after(() => t?.close());

  const createCustomerOver = async (url: string, email: string) => {
    const answer = await callTool(url, 'billing_customer_create', { name: 'Channel Test', email }, { token });
    assert.equal(answer.status, 200, answer.text);
    assert.notEqual(answer.body.result?.isError, true, answer.text);
    return t.prisma.client.customer.findFirstOrThrow({ where: { email } });
  };

  it('an MCP write through POST /MCP is stamped mcp, not api', async () => {
    const row = await createCustomerOver(`${t.baseUrl}/MCP`, 'upper-case-path@channel.test');
    assert.deepEqual([row.createdVia, row.updatedVia], ['mcp', 'mcp']);
  });

  it('an MCP write through POST /mcp#fragment is stamped mcp, not api', async () => {
    const request = statelessRequest('tools/call', {
      name: 'billing_customer_create',
      arguments: { name: 'Channel Test', email: 'fragment@channel.test' },
    });
    const body = JSON.stringify(request.body);
    const answer = await rawRequest(`${t.baseUrl}/mcp`, {
      path: '/mcp#x',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...request.headers, ...bearer(token) },
      chunks: [body],
    });
    assert.equal(answer.status, 200, answer.text);
    const row = await t.prisma.client.customer.findFirstOrThrow({ where: { email: 'fragment@channel.test' } });
    assert.equal(row.createdVia, 'mcp');
  });

  it('a REST write is still stamped api', async () => {
    const response = await fetch(`${t.baseUrl}/V1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ name: 'Channel Test', email: 'rest@channel.test' }),
    });
    assert.equal(response.status, 201, await response.text());
    const row = await t.prisma.client.customer.findFirstOrThrow({ where: { email: 'rest@channel.test' } });
    assert.equal(row.createdVia, 'api');
  });

  it('a panel decision through POST /ADMIN/approvals/<id>/decision is stamped and audited panel', async () => {
    await setPanelPassword(t, 'admin@demo.test', 'approver password 1');
    const admin = new PanelVisitor(t.baseUrl);
    assert.equal((await admin.signIn('admin@demo.test', 'approver password 1')).status, 303);
    const invoice = await unpaidInvoice(t, token);
    const { envelope } = await agentCall(t, token, 'billing_invoice_cancel', { invoice_id: invoice.id, reason: 'Wrong customer' });
    assert.equal(envelope.status, 'pending_confirmation', JSON.stringify(envelope));
    const path = new URL(envelope.approval!.url).pathname;
    const page = await admin.get(path);
    assert.equal(page.status, 200, page.text);
    const answer = await admin.post(`${path.toUpperCase().replace(/\/APPROVALS\/.*/, '/APPROVALS/')}${envelope.approval!.id}/decision`, {
      _csrf: csrfOf(page.text),
      decision: 'continue',
    });
    assert.ok(answer.status < 400, `${answer.status} ${answer.text.slice(0, 300)}`);
    const row = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    assert.deepEqual([row.status, row.updatedVia], ['cancelled', 'panel']);
    const decisions = await t.prisma.client.mcpAuditEvent.findMany({
      where: { method: 'approval/continue', arguments: { path: ['approval_id'], equals: envelope.approval!.id } },
    });
    assert.deepEqual(
      decisions.map((e) => e.channel),
      ['panel'],
    );
  });
});
