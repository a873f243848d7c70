import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PrismaService } from '../../src/database/prisma.service.js';
import { needsRealPostgres } from '../support/app-process.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';
import { sentInvoice } from '../support/rest-http.js';
import { sseEvents, type SseEvent } from '@nest-mcp/core/testing';

/**
 * Stream mode (MCP_STREAMS=true), handshake era: a destructive tool confirmed in the chat is asked
 * BEFORE the call's transaction opens (the layer asks before the application's call hook). So
 * nobody waiting for a person holds a pooled connection or an open transaction, a person may
 * answer after the transaction limit, and one caller cannot pile up questions without bound.
 */

const VERSION = '2025-11-25';

describe('in-chat confirmation over the stream waits outside any transaction (real app)', () => {
  let t: BillingTestApp;
  let token: string;
  let customerId: string;
  let session: string;
  let nextId = 100;

  const headers = (extra: Record<string, string> = {}) => ({
    ...bearer(token),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-session-id': session,
    ...extra,
  });

  /** A handshake-era session of a client that declared form elicitation. */
  async function openSession(): Promise<string> {
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: VERSION,
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: 'stream-confirm', version: '1.0.0' },
        },
      }),
    });
    assert.equal(response.status, 200);
    await response.text();
    const id = response.headers.get('mcp-session-id');
    assert.ok(id);
    const initialized = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json', 'mcp-protocol-version': VERSION, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    assert.equal(initialized.status, 202);
    return id;
  }

  /** `billing_invoice_cancel` of a new invoice, left waiting on its question: the question's id, and how to read the rest. */
  async function cancelWaitingForAnswer() {
    const invoiceId = await sentInvoice(t, token, customerId);
    const id = nextId++;
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'billing_invoice_cancel', arguments: { invoice_id: invoiceId, reason: 'Issued twice' } },
      }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const events = sseEvents(response);
    const question = (await events.next()).value as SseEvent;
    assert.equal(question.data.method, 'elicitation/create', 'the person is asked in the chat');
    return {
      invoiceId,
      answer: async (result: Record<string, unknown>) => {
        const posted = await fetch(t.mcpUrl, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({ jsonrpc: '2.0', id: question.data.id, result }),
        });
        assert.equal(posted.status, 202);
        for await (const event of events) if (event.data.id === id) return event.data;
        assert.fail('the call ended without a response');
      },
    };
  }

  const callTool = async (name: string, args: Record<string, unknown>) => {
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
    });
    assert.equal(response.headers.get('content-type')?.startsWith('application/json'), true, 'answered at once, as JSON');
    return (await response.json()) as Record<string, any>;
  };

  const auditRows = (invoiceId: string) =>
    t.prisma.client.mcpAuditEvent.findMany({
      where: { method: 'tools/call', target: 'billing_invoice_cancel', arguments: { path: ['invoice_id'], equals: invoiceId } },
    });
  async function auditOf(invoiceId: string) {
    for (let i = 0; i < 100; i++) {
      const rows = await auditRows(invoiceId);
      if (rows.length) return rows;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return auditRows(invoiceId);
  }
  const invoiceStatus = async (id: string) => (await t.prisma.client.invoice.findUniqueOrThrow({ where: { id } })).status;

  before(async () => {
    t = await withEnv({ MCP_STREAMS: 'true' }, () => startBillingApp());
    token = await t.token();
    const response = await fetch(`${t.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ name: 'Stream Confirm Co', email: 'stream-confirm@co.test' }),
    });
    customerId = ((await response.json()) as { id: string }).id;
    session = await openSession();
  });
  after(() => t?.close());

  it('while a destructive call waits for the person, no transaction is open for it', { skip: needsRealPostgres() }, async () => {
    const pending = await cancelWaitingForAnswer();
    const observer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await observer.connect();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await observer.query<{ count: string }>(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
      );
      assert.equal(Number(rows[0].count), 0, 'a transaction is held open while a person decides');
    } finally {
      await observer.end();
    }
    const response = await pending.answer({ action: 'decline' });
    assert.equal(response.result.isError, true);
    assert.equal(response.result.structuredContent.errors[0].code, 'confirmation_declined');
    assert.equal(await invoiceStatus(pending.invoiceId), 'sent');
    const [row] = await auditOf(pending.invoiceId);
    assert.deepEqual([row.outcome, row.errorCode], ['failed', 'confirmation_declined'], 'a declined confirmation is audited');
  });

  it('an answer given after the transaction limit (but within the question timeout) still runs the call', async () => {
    const prisma = t.app.get(PrismaService);
    const limit = prisma.transactionLimitMs;
    prisma.transactionLimitMs = 300;
    try {
      const pending = await cancelWaitingForAnswer();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const response = await pending.answer({ action: 'accept', content: { confirm: true } });
      assert.ok(response.result, JSON.stringify(response));
      assert.notEqual(response.result.isError, true, JSON.stringify(response.result));
      assert.equal(response.result.structuredContent.data.status, 'cancelled');
      assert.equal(await invoiceStatus(pending.invoiceId), 'cancelled', 'the write happened');
      const [row] = await auditOf(pending.invoiceId);
      assert.equal(row.outcome, 'success');
    } finally {
      prisma.transactionLimitMs = limit;
    }
  });

  it('beyond maxPendingConfirmationsPerCaller (4) waiting, the next destructive call is refused at once and audited; other calls still work', async () => {
    const waiting = [];
    for (let i = 0; i < 4; i++) waiting.push(await cancelWaitingForAnswer());
    try {
      const invoiceId = await sentInvoice(t, token, customerId);
      const started = performance.now();
      const refused = await callTool('billing_invoice_cancel', { invoice_id: invoiceId, reason: 'One too many' });
      assert.ok(performance.now() - started < 5_000, 'answered at once');
      assert.equal(refused.result.isError, true);
      const [error] = refused.result.structuredContent.errors;
      assert.equal(error.code, 'too_many_pending_confirmations');
      assert.equal(error.retryable, true);
      assert.match(error.message, /4 confirmations of yours are already waiting for the user/);
      assert.equal(await invoiceStatus(invoiceId), 'sent');
      const [row] = await auditOf(invoiceId);
      assert.deepEqual([row.outcome, row.errorCode], ['failed', 'too_many_pending_confirmations']);

      const search = await callTool('billing_invoices_search', {});
      assert.notEqual(search.result?.isError, true, JSON.stringify(search));
    } finally {
      for (const pending of waiting) await pending.answer({ action: 'decline' });
    }
    // The slots are free again: the next one is asked.
    const again = await cancelWaitingForAnswer();
    await again.answer({ action: 'decline' });
  });
});
