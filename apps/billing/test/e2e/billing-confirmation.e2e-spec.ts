import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Request } from 'express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpApprovals as ApprovalService } from '@nest-mcp/admin';
import { RequestContext } from '../../src/context/request-context.js';
import { DEMO_ADMIN_EMAIL } from '../../src/demo/demo-seed.js';
import { callTool, toolsByName, type Envelope } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { sentInvoice as sentInvoiceOf } from '../support/rest-http.js';

/**
 * Destructive tools wait for a person's yes (docs/contract.md §4), end to end with the official clients:
 * in the chat for a 2026 client that declared elicitation, through an approval link otherwise.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const envelopeOf = (result: { structuredContent?: unknown; content?: unknown }) => result.structuredContent as Envelope;

describe('confirmation of destructive tools (real app, official clients)', () => {
  let t: BillingTestApp;
  let admin: string;
  let adminId: string;
  let customerId: string;
  /** Every tools/call the v2 clients posted, with the answer. */
  const wire: Array<{ body: any; answer: any }> = [];

  const spyFetch = async (url: string | URL, init: RequestInit = {}) => {
    const response = await fetch(url, init);
    const text = await response.text();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    if (body?.method === 'tools/call') wire.push({ body, answer: text ? JSON.parse(text) : undefined });
    return new Response(text, { status: response.status, headers: response.headers });
  };

  /** The 2026-07-28 client, with or without the elicitation capability. */
  async function v2Client(
    elicit?: (params: any) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> },
  ) {
    const client = new Client(
      { name: 'confirm-e2e', version: '2.4.0' },
      { capabilities: elicit ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.mcpUrl), { fetch: spyFetch, requestInit: { headers: bearer(admin) } }),
    );
    return client;
  }

  const sentInvoice = () => sentInvoiceOf(t, admin, customerId);

  const invoiceRow = (id: string) => t.prisma.client.invoice.findUniqueOrThrow({ where: { id } });
  const approvals = (invoiceId: string) =>
    t.prisma.client.mcpApproval.findMany({
      where: { tool: 'billing_invoice_cancel', arguments: { path: ['invoice_id'], equals: invoiceId } },
    });

  /** What the approval page does on a click, as the demo admin, on the panel channel. */
  const decide = (approvalId: string, decision: 'continue' | 'cancel') =>
    RequestContext.run({ channel: 'panel' }, () =>
      t.app.get(ApprovalService).decide(approvalId, adminId, decision, { headers: {}, query: {} } as unknown as Request),
    );

  /** A hand-made 2026 tools/call from a client that declared form elicitation (for state replays). */
  const chatCall = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, token = admin) =>
    callTool(t.mcpUrl, name, args, { token, capabilities: { elicitation: {} }, params: extra });
  const YES = { confirm: { action: 'accept', content: { confirm: true } } };

  /** A payment of the whole of a new invoice, registered over REST: something to refund. */
  async function paidPayment(): Promise<string> {
    const invoiceId = await sentInvoice();
    const response = await fetch(`${t.baseUrl}/v1/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(admin) },
      body: JSON.stringify({
        invoice_id: invoiceId,
        amount_minor: 100_000,
        method: 'transfer',
        evidence: {
          raw_extracted: { monto: '$1000.00' },
          tracking_key_candidates: [{ value: `TRK${Date.now()}`, source: 'ocr', confidence: 0.99 }],
        },
        idempotency_key: `idem-${Math.random()}`,
      }),
    });
    const body = (await response.json()) as { payment: { id: string } };
    assert.equal(response.status, 201, JSON.stringify(body));
    return body.payment.id;
  }

  before(async () => {
    t = await startBillingApp();
    admin = await t.token();
    adminId = (await t.prisma.client.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } })).id;
    const response = await fetch(`${t.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(admin) },
      body: JSON.stringify({ name: 'Confirm Co', email: 'confirm@co.test' }),
    });
    customerId = ((await response.json()) as { id: string }).id;
  });
  after(() => t.close());

  describe('2026 client that declared elicitation: asked in the chat', () => {
    it('asks once, runs on an accepted yes, and the retry carries the sealed requestState', async () => {
      const invoiceId = await sentInvoice();
      const asked: any[] = [];
      const client = await v2Client((params) => {
        asked.push(params);
        return { action: 'accept', content: { confirm: true } };
      });
      wire.length = 0;
      try {
        const result = await client.callTool({ name: 'billing_invoice_cancel', arguments: { invoice_id: invoiceId, reason: 'Duplicate' } });
        assert.equal(result.isError, undefined);
        assert.equal(envelopeOf(result).status, 'success');
        assert.equal(envelopeOf(result).data.status, 'cancelled');
      } finally {
        await client.close();
      }
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /Cancel an invoice|cancel/i);
      assert.deepEqual(asked[0].requestedSchema.required, ['confirm']);
      // Round 1 answered input_required with an opaque state; round 2 echoed it with the answer.
      assert.equal(wire.length, 2);
      assert.equal(wire[0].answer.result.resultType, 'input_required');
      assert.equal(typeof wire[0].answer.result.requestState, 'string');
      assert.equal(wire[1].body.params.requestState, wire[0].answer.result.requestState);
      assert.deepEqual(wire[1].body.params.inputResponses.confirm, { action: 'accept', content: { confirm: true } });
      const row = await invoiceRow(invoiceId);
      assert.deepEqual([row.status, row.updatedVia], ['cancelled', 'mcp']);
      assert.equal((await approvals(invoiceId)).length, 0, 'no approval link when the chat can confirm');
    });

    it('does not run when the user declines, and says so', async () => {
      const invoiceId = await sentInvoice();
      const client = await v2Client(() => ({ action: 'decline' }));
      try {
        const result = await client.callTool({ name: 'billing_invoice_cancel', arguments: { invoice_id: invoiceId, reason: 'Duplicate' } });
        assert.equal(result.isError, true);
        const text = JSON.parse((result.content as Array<{ text: string }>)[0].text) as Envelope;
        assert.equal(text.errors[0].code, 'confirmation_declined');
        assert.match(text.errors[0].message, /nothing was done/);
      } finally {
        await client.close();
      }
      assert.equal((await invoiceRow(invoiceId)).status, 'sent');
    });

    it('refuses a requestState replayed, altered, or issued for other arguments (-32602), and runs nothing', async () => {
      const invoiceId = await sentInvoice();
      const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) => chatCall('billing_invoice_cancel', args, extra);
      const args = { invoice_id: invoiceId, reason: 'Duplicate' };
      const first = await call(args);
      assert.equal(first.body.result.resultType, 'input_required');
      const state = first.body.result.requestState as string;
      const yes = { confirm: { action: 'accept', content: { confirm: true } } };

      const otherArgs = await call({ ...args, reason: 'Another reason' }, { requestState: state, inputResponses: yes });
      assert.equal(otherArgs.body.error.code, -32602);
      assert.match(otherArgs.body.error.message, /issued for another call/);

      const altered = await call(args, { requestState: state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA'), inputResponses: yes });
      assert.equal(altered.body.error.code, -32602);
      assert.match(altered.body.error.message, /integrity/);
      assert.equal((await invoiceRow(invoiceId)).status, 'sent');

      // A fresh state: accepted once, refused the second time.
      const again = await call(args);
      const fresh = again.body.result.requestState as string;
      const used = await call(args, { requestState: fresh, inputResponses: yes });
      assert.equal(used.envelope.status, 'success');
      const replay = await call(args, { requestState: fresh, inputResponses: yes });
      assert.equal(replay.body.error.code, -32602);
      assert.match(replay.body.error.message, /already used/);
    });

    it('a declined confirmation spends its requestState: the same state replayed with accept is refused (-32602, start over) and nothing is cancelled', async () => {
      const invoiceId = await sentInvoice();
      const args = { invoice_id: invoiceId, reason: 'Duplicate' };
      const first = await chatCall('billing_invoice_cancel', args);
      assert.equal(first.body.result.resultType, 'input_required');
      const state = first.body.result.requestState as string;

      const declined = await chatCall('billing_invoice_cancel', args, {
        requestState: state,
        inputResponses: { confirm: { action: 'decline' } },
      });
      assert.equal(declined.envelope.errors[0].code, 'confirmation_declined');

      const replay = await chatCall('billing_invoice_cancel', args, { requestState: state, inputResponses: YES });
      assert.equal(replay.body.error?.code, -32602, JSON.stringify(replay.body));
      assert.match(replay.body.error.message, /already used.*start over/);
      assert.equal((await invoiceRow(invoiceId)).status, 'sent');
    });

    it('an accepted confirmation whose call fails leaves the state usable: the retry is not refused as already used', async () => {
      const invoiceId = await sentInvoice();
      const args = { invoice_id: invoiceId, reason: 'Duplicate' };
      const state = (await chatCall('billing_invoice_cancel', args)).body.result.requestState as string;
      // The invoice becomes uncancellable between the question and the answer: the confirmed call fails.
      await t.prisma.client.$executeRaw`UPDATE invoices SET status = 'paid' WHERE id = ${invoiceId}::uuid`;
      const failed = await chatCall('billing_invoice_cancel', args, { requestState: state, inputResponses: YES });
      assert.equal(failed.body.result?.isError, true, JSON.stringify(failed.body));
      assert.notEqual(failed.envelope.errors[0].code, 'confirmation_declined');

      await t.prisma.client.$executeRaw`UPDATE invoices SET status = 'sent' WHERE id = ${invoiceId}::uuid`;
      const retried = await chatCall('billing_invoice_cancel', args, { requestState: state, inputResponses: YES });
      assert.equal(retried.envelope.status, 'success', JSON.stringify(retried.body));
      assert.equal((await invoiceRow(invoiceId)).status, 'cancelled');
    });

    it("a tool marked confirmation: 'link' (billing_payment_refund) gives even an eliciting client an approval link, never asks in the chat", async () => {
      const paymentId = await paidPayment();
      const asked: any[] = [];
      const client = await v2Client((params) => {
        asked.push(params);
        return { action: 'accept', content: { confirm: true } };
      });
      try {
        const result = await client.callTool({
          name: 'billing_payment_refund',
          arguments: { payment_id: paymentId, reason: 'Customer paid twice', idempotency_key: `idem-${Math.random()}` },
        });
        const envelope = envelopeOf(result);
        assert.equal(envelope.status, 'pending_confirmation', JSON.stringify(envelope));
        assert.match(envelope.approval!.url, /\/admin\/approvals\//);
      } finally {
        await client.close();
      }
      assert.deepEqual(asked, [], 'no in-chat question');
      assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
      assert.equal(await t.prisma.client.mcpApproval.count({ where: { tool: 'billing_payment_refund', status: 'pending' } }), 1);
    });

    it('a fabricated yes without the server-issued state is asked again, not obeyed', async () => {
      const invoiceId = await sentInvoice();
      const { body } = await chatCall(
        'billing_invoice_cancel',
        { invoice_id: invoiceId, reason: 'Duplicate' },
        { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      );
      assert.equal(body.result.resultType, 'input_required');
      assert.equal((await invoiceRow(invoiceId)).status, 'sent');
    });
  });

  describe('any other client: approval link', () => {
    it('2026 client without elicitation: pending_confirmation with a link; Continue runs it once; the re-call returns the result', async () => {
      const invoiceId = await sentInvoice();
      const client = await v2Client();
      const args = { invoice_id: invoiceId, reason: 'Customer asked' };
      try {
        const pending = await client.callTool({ name: 'billing_invoice_cancel', arguments: args });
        assert.equal(pending.isError, undefined, 'waiting for a person is not an error');
        const envelope = envelopeOf(pending);
        assert.equal(envelope.status, 'pending_confirmation');
        assert.equal(envelope.ok, false);
        assert.match(envelope.approval!.id, UUID);
        assert.equal(envelope.approval!.url, `${t.baseUrl}/admin/approvals/${envelope.approval!.id}`);
        assert.match(envelope.nextQuestion!, /choose Continue/);
        assert.equal((await invoiceRow(invoiceId)).status, 'sent', 'nothing runs before Continue');

        const again = envelopeOf(await client.callTool({ name: 'billing_invoice_cancel', arguments: args }));
        assert.equal(again.approval!.id, envelope.approval!.id, 'an identical call finds the same approval');
        const other = envelopeOf(await client.callTool({ name: 'billing_invoice_cancel', arguments: { ...args, reason: 'Other' } }));
        assert.notEqual(other.approval!.id, envelope.approval!.id, 'other arguments, another approval');

        const [row] = (await approvals(invoiceId)).filter((a) => a.id === envelope.approval!.id);
        // mcp_approvals (@nest-mcp/admin) has no created_via column: the channel of the call is on its audit row.
        assert.deepEqual([row.status, row.clientName, row.clientVersion], ['pending', 'confirm-e2e', '2.4.0']);

        const status = async (token = admin) => {
          const { body } = await callTool(t.mcpUrl, 'approval_status', { approval_id: envelope.approval!.id }, { token });
          return body.result.structuredContent as Envelope;
        };
        const before = await status();
        assert.deepEqual([before.data.status, before.data.url], ['pending', envelope.approval!.url]);
        const stranger = await status(await t.token({ email: 'accountant@demo.test', scopes: ['billing:read'] }));
        assert.equal(stranger.errors[0].code, 'not_found', "another person's approval is not found");

        const decision = await decide(envelope.approval!.id, 'continue');
        assert.equal(decision.kind, 'executed');
        const after = await status();
        assert.equal(after.data.status, 'executed');
        assert.equal(after.data.result.data.status, 'cancelled', "the tool's own answer");
        const cancelled = await invoiceRow(invoiceId);
        assert.deepEqual([cancelled.status, cancelled.updatedVia], ['cancelled', 'panel']);

        const second = await decide(envelope.approval!.id, 'continue');
        assert.equal(second.kind, 'already_decided');
        assert.equal((await invoiceRow(invoiceId)).updatedAt.getTime(), cancelled.updatedAt.getTime(), 'never a second run');

        const result = await client.callTool({ name: 'billing_invoice_cancel', arguments: args });
        assert.equal(result.isError, undefined);
        assert.equal(envelopeOf(result).status, 'success');
        assert.equal(envelopeOf(result).data.status, 'cancelled');
        assert.equal((await invoiceRow(invoiceId)).updatedAt.getTime(), cancelled.updatedAt.getTime(), 'the re-call ran nothing');

        const audit = await t.prisma.client.mcpAuditEvent.findMany({
          where: { method: 'approval/continue', target: 'billing_invoice_cancel', userId: adminId },
        });
        assert.equal(audit.filter((e) => (e.arguments as { approval_id: string }).approval_id === envelope.approval!.id).length, 1);
        assert.equal(audit[0].channel, 'panel');
      } finally {
        await client.close();
      }
    });

    it('2025-era SDK client: pending, then Cancel on the page: the re-call says denied and nothing ran', async () => {
      const invoiceId = await sentInvoice();
      const client = new SdkClient({ name: 'sdk-v1-e2e', version: '1.32.0' });
      await client.connect(new SdkTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer(admin) } }));
      const args = { invoice_id: invoiceId, reason: 'Customer asked' };
      try {
        const pending = envelopeOf((await client.callTool({ name: 'billing_invoice_cancel', arguments: args })) as any);
        assert.equal(pending.status, 'pending_confirmation');
        const [row] = await approvals(invoiceId);
        // A 2025-era call carries no clientInfo: the name its initialize gave, remembered for the caller.
        assert.deepEqual([row.clientName, row.clientVersion], ['sdk-v1-e2e', '1.32.0']);
        assert.equal((await decide(pending.approval!.id, 'cancel')).kind, 'denied');
        const denied = (await client.callTool({ name: 'billing_invoice_cancel', arguments: args })) as any;
        assert.equal(denied.isError, true);
        assert.equal(JSON.parse(denied.content[0].text).errors[0].code, 'approval_denied');
        assert.equal((await invoiceRow(invoiceId)).status, 'sent');
        assert.equal((await decide(pending.approval!.id, 'continue')).kind, 'already_decided');
        assert.equal((await invoiceRow(invoiceId)).status, 'sent');
      } finally {
        await client.close();
      }
    });

    it('approval_status follows the workspace rules: a token bound to another workspace of the same person gets 404', async () => {
      const invoiceId = await sentInvoice();
      const client = await v2Client();
      let approvalId: string;
      try {
        approvalId = envelopeOf(
          await client.callTool({ name: 'billing_invoice_cancel', arguments: { invoice_id: invoiceId, reason: 'Elsewhere' } }),
        ).approval!.id;
      } finally {
        await client.close();
      }
      const workspace = await t.prisma.client.workspace.create({ data: { slug: 'approvals-other', name: 'Other Approvals Co' } });
      await t.prisma.client.membership.create({ data: { userId: adminId, workspaceId: workspace.id, role: 'admin' } });
      const elsewhere = await t.token({ workspaceSlug: 'approvals-other' });

      const rest = await fetch(`${t.baseUrl}/v1/approvals/${approvalId}`, { headers: bearer(elsewhere) });
      assert.equal(rest.status, 404);
      const { body } = await callTool(t.mcpUrl, 'approval_status', { approval_id: approvalId }, { token: elsewhere });
      assert.equal(body.result.structuredContent.errors[0].code, 'not_found', JSON.stringify(body));

      const home = await fetch(`${t.baseUrl}/v1/approvals/${approvalId}`, { headers: bearer(admin) });
      assert.equal(home.status, 200, 'the workspace it was requested in still answers');
      assert.equal(((await home.json()) as { status: string }).status, 'pending');
    });

    it('approval_status needs the read scope: 403 over REST, not listed and insufficient_scope over MCP', async () => {
      const writeOnly = await t.token({ scopes: ['billing:write'] });
      const rest = await fetch(`${t.baseUrl}/v1/approvals/${randomUUID()}`, { headers: bearer(writeOnly) });
      assert.equal(rest.status, 403);
      assert.match(rest.headers.get('www-authenticate') ?? '', /insufficient_scope/);

      assert.ok(!(await toolsByName(t.mcpUrl, writeOnly)).has('approval_status'));
      const called = await callTool(t.mcpUrl, 'approval_status', { approval_id: randomUUID() }, { token: writeOnly });
      assert.equal(called.status, 403);
      assert.match(called.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    });

    it('an expired link runs nothing: the page says expired, the re-call says expired', async () => {
      const invoiceId = await sentInvoice();
      const client = await v2Client();
      const args = { invoice_id: invoiceId, reason: 'Too late' };
      try {
        const pending = envelopeOf(await client.callTool({ name: 'billing_invoice_cancel', arguments: args }));
        await t.prisma.client
          .$executeRaw`UPDATE mcp_approvals SET expires_at = now() - interval '1 minute' WHERE id = ${pending.approval!.id}::uuid`;
        assert.equal((await decide(pending.approval!.id, 'continue')).kind, 'expired');
        const expired = await client.callTool({ name: 'billing_invoice_cancel', arguments: args });
        assert.equal(expired.isError, true);
        assert.equal(JSON.parse((expired.content as Array<{ text: string }>)[0].text).errors[0].code, 'approval_expired');
        assert.equal((await invoiceRow(invoiceId)).status, 'sent');
      } finally {
        await client.close();
      }
    });

    it('Continue on a call the tool refuses (already cancelled) records the refusal, changes nothing', async () => {
      const invoiceId = await sentInvoice();
      const client = await v2Client();
      const args = { invoice_id: invoiceId, reason: 'Twice' };
      try {
        const pending = envelopeOf(await client.callTool({ name: 'billing_invoice_cancel', arguments: args }));
        const cancel = await fetch(`${t.baseUrl}/v1/invoices/${invoiceId}/cancel`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(admin) },
          body: JSON.stringify({ reason: 'Cancelled over REST meanwhile' }),
        });
        assert.equal(cancel.status, 200);
        const decision = await decide(pending.approval!.id, 'continue');
        assert.equal(decision.kind, 'failed');
        const result = await client.callTool({ name: 'billing_invoice_cancel', arguments: args });
        assert.equal(result.isError, true, 'the re-call gets the refusal the tool gave');
        assert.equal((await invoiceRow(invoiceId)).cancelReason, 'Cancelled over REST meanwhile');
      } finally {
        await client.close();
      }
    });
  });
});
