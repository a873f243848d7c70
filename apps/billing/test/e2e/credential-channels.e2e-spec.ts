import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { callTool, toolsByName } from '@nest-mcp/core/testing';
import { RestWriteAuditRoutes } from '../../src/audit/rest-write-audit.routes.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { restCall, sentInvoice } from '../support/rest-http.js';
import { createCustomer } from '../support/write-ledger.js';

/**
 * A credential works only on the surface it was issued for (docs/security.md, "Which credential
 * works where"): the token an admin hands to an agent cannot refund over REST what MCP holds for
 * a person's confirmation; and every write leaves an audit row, whatever the channel.
 */
const idem = () => `idem-${randomUUID()}`;
const trackingKey = () => `TRK${randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase()}`;

describe('credentials bound to a surface, and an audit row for every write', () => {
  let t: BillingTestApp;
  let both: string;
  let agent: string;
  let program: string;
  let paymentId: string;

  before(async () => {
    t = await startBillingApp();
    both = await t.token({ surfaces: ['mcp', 'api'] });
    agent = await t.token({ surfaces: undefined }); // what npm run token mints by default: mcp
    program = await t.token({ surfaces: ['api'] });
    const customerId = await createCustomer(t.baseUrl, both, `channels-${randomUUID()}@demo.test`);
    const invoiceId = await sentInvoice(t, both, customerId);
    const key = trackingKey();
    const payment = await restCall(t, both, 'POST', '/v1/payments', {
      invoice_id: invoiceId,
      amount_minor: 100_000,
      method: 'transfer',
      evidence: { raw_extracted: { clave_rastreo: key }, tracking_key_candidates: [{ value: key, source: 'ocr', confidence: 0.97 }] },
      idempotency_key: idem(),
    });
    assert.equal(payment.status, 201, JSON.stringify(payment.body));
    paymentId = (payment.body as { payment: { id: string } }).payment.id;
  });
  after(() => t.close());

  it("refuses an agent's token (issued for mcp, the default) on the REST refund with 403 naming the channel, and refunds nothing", async () => {
    const refund = await restCall(t, agent, 'POST', `/v1/payments/${paymentId}/refunds`, {
      reason: 'Customer paid twice',
      idempotency_key: idem(),
    });
    assert.equal(refund.status, 403);
    assert.equal(refund.body.error, 'wrong_channel');
    assert.match(
      refund.body.message,
      /issued for the MCP endpoint only, not the REST API: use a token issued for api \(npm run token -- --for api/,
    );
    assert.equal(refund.headers.get('www-authenticate'), null, 'not a scope challenge: re-authorising would not help');
    assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
    // The same token over MCP: the refund waits for a person, as before.
    const { envelope } = await callTool(
      t.mcpUrl,
      'billing_payment_refund',
      { payment_id: paymentId, reason: 'Customer paid twice', idempotency_key: idem() },
      { token: agent },
    );
    assert.equal(envelope.status, 'pending_confirmation');
    assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
  });

  it('refuses a token issued for api on the MCP endpoint with 403 naming the channel', async () => {
    const answer = await callTool(t.mcpUrl, 'server_status', {}, { token: program });
    assert.equal(answer.status, 403);
    assert.match(JSON.stringify(answer.body), /issued for the REST API only, not the MCP endpoint: use a token issued for mcp/);
    assert.equal((await restCall(t, program, 'GET', '/v1/customers')).status, 200);
  });

  it('accepts a token issued for both on both', async () => {
    assert.equal((await toolsByName(t.mcpUrl, both)).has('billing_payment_refund'), true);
    assert.equal((await restCall(t, both, 'GET', '/v1/customers')).status, 200);
  });

  it('audits a REST write in its own transaction: channel api, who, the route, the redacted arguments', async () => {
    const email = `audited-${randomUUID()}@demo.test`;
    const created = await restCall(t, program, 'POST', '/v1/customers', { name: 'Audited Ltd', email });
    assert.equal(created.status, 201);
    const rows = await t.prisma.client.mcpAuditEvent.findMany({
      where: { channel: 'api', arguments: { path: ['body', 'email'], equals: email } },
    });
    assert.equal(rows.length, 1);
    const [row] = rows;
    const token = await t.prisma.client.accessToken.findFirstOrThrow({
      where: { surfaces: { equals: ['api'] } },
      orderBy: { createdAt: 'desc' },
    });
    assert.deepEqual(
      {
        method: row.method,
        target: row.target,
        outcome: row.outcome,
        userId: row.userId,
        tokenId: row.tokenId,
        workspace: !!row.workspaceId,
      },
      {
        method: 'POST /v1/customers',
        target: '/v1/customers',
        outcome: 'success',
        userId: token.userId,
        tokenId: token.id,
        workspace: true,
      },
    );
  });

  it('puts the audit on every write route of every controller, and on no read', async () => {
    const audited = t.app.get(RestWriteAuditRoutes).audited;
    for (const route of ['CustomersController.create', 'PaymentsController.refund', 'InvoicesController.cancel']) {
      assert.ok(audited.includes(route), `${route} is audited (${audited.join(', ')})`);
    }
    // The other channels are audited where they are served: the MCP endpoint by the call hook, the admin pages by their decisions.
    assert.deepEqual(
      audited.filter((route) => /^(McpController|PanelController)\./.test(route)),
      [],
    );
    const before = await t.prisma.client.mcpAuditEvent.count({ where: { channel: 'api' } });
    assert.equal((await restCall(t, program, 'GET', '/v1/customers')).status, 200);
    assert.equal(await t.prisma.client.mcpAuditEvent.count({ where: { channel: 'api' } }), before, 'a read writes no row');
  });

  it('audits a REST write that fails, and keeps nothing of it', async () => {
    const email = `twice-${randomUUID()}@demo.test`;
    assert.equal((await restCall(t, program, 'POST', '/v1/customers', { name: 'Once', email })).status, 201);
    const again = await restCall(t, program, 'POST', '/v1/customers', { name: 'Twice', email });
    assert.equal(again.status, 409);
    const rows = await t.prisma.client.mcpAuditEvent.findMany({
      where: { channel: 'api', arguments: { path: ['body', 'email'], equals: email } },
      orderBy: { occurredAt: 'asc' },
    });
    assert.deepEqual(
      rows.map((row) => [row.outcome, row.errorCode]),
      [
        ['success', null],
        ['error', 'http_409'],
      ],
    );
    assert.equal(await t.prisma.client.customer.count({ where: { email } }), 1);
  });

  it('audits the refund a person makes over REST with a token issued for api (the write the finding left unaudited)', async () => {
    const refund = await restCall(t, both, 'POST', `/v1/payments/${paymentId}/refunds`, {
      reason: 'Customer paid twice',
      idempotency_key: idem(),
    });
    assert.equal(refund.status, 201, JSON.stringify(refund.body));
    const row = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { channel: 'api', target: `/v1/payments/${paymentId}/refunds` },
    });
    assert.equal(row.method, 'POST /v1/payments/:payment_id/refunds');
    assert.equal(row.outcome, 'success');
  });
});
