import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Request } from 'express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ApprovalService } from '../../src/approvals/approval.service.js';
import { RequestContext } from '../../src/context/request-context.js';
import { DEMO_ADMIN_EMAIL } from '../../src/database/demo-seed.js';
import { post, statelessRequest } from '../support/mcp-http.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * Destructive tools wait for a person's yes (SPEC §4), end to end with the official clients:
 * in the chat for a 2026 client that declared elicitation, through an approval link otherwise.
 */

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Envelope {
  ok: boolean;
  status: string;
  data?: any;
  errors: Array<{ code: string; message: string }>;
  nextQuestion?: string;
  approval?: { id: string; url?: string; expires_at?: string };
}

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
  async function v2Client(elicit?: (params: any) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> }) {
    const client = new Client(
      { name: 'confirm-e2e', version: '2.4.0' },
      { capabilities: elicit ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params));
    await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl), { fetch: spyFetch, requestInit: { headers: bearer(admin) } }));
    return client;
  }

  async function sentInvoice(): Promise<string> {
    const response = await fetch(`${t.baseUrl}/v1/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(admin) },
      body: JSON.stringify({
        customer_id: customerId,
        currency: 'MXN',
        issue_date: day(-2),
        due_date: day(28),
        lines: [{ description: 'Consulting', quantity: 1, unit_price_minor: 100_000 }],
      }),
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: string }).id;
  }

  const invoiceRow = (id: string) => t.prisma.client.invoice.findUniqueOrThrow({ where: { id } });
  const approvals = (invoiceId: string) =>
    t.prisma.client.approval.findMany({ where: { tool: 'billing_invoice_cancel', arguments: { path: ['invoice_id'], equals: invoiceId } } });

  /** What the approval page does on a click, as the demo admin, on the panel channel. */
  const decide = (approvalId: string, decision: 'continue' | 'cancel') =>
    RequestContext.run({ channel: 'panel' }, () =>
      t.app.get(ApprovalService).decide(approvalId, adminId, decision, { headers: {}, query: {} } as unknown as Request),
    );

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
      const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
        const request = statelessRequest('tools/call', { name: 'billing_invoice_cancel', arguments: args, ...extra });
        request.body.params._meta['io.modelcontextprotocol/clientCapabilities'] = { elicitation: {} };
        return post(t.mcpUrl, request.body, { ...request.headers, ...bearer(admin) });
      };
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
      assert.equal(JSON.parse(used.body.result.content[0].text).status, 'success');
      const replay = await call(args, { requestState: fresh, inputResponses: yes });
      assert.equal(replay.body.error.code, -32602);
      assert.match(replay.body.error.message, /already used/);
    });

    it('a fabricated yes without the server-issued state is asked again, not obeyed', async () => {
      const invoiceId = await sentInvoice();
      const request = statelessRequest('tools/call', {
        name: 'billing_invoice_cancel',
        arguments: { invoice_id: invoiceId, reason: 'Duplicate' },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      request.body.params._meta['io.modelcontextprotocol/clientCapabilities'] = { elicitation: {} };
      const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(admin) });
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
        assert.deepEqual([row.status, row.clientName, row.clientVersion, row.createdVia], ['pending', 'confirm-e2e', '2.4.0', 'mcp']);

        const status = async (token = admin) => {
          const request = statelessRequest('tools/call', { name: 'approval_status', arguments: { approval_id: envelope.approval!.id } });
          const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
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

        const audit = await t.prisma.client.auditEvent.findMany({ where: { method: 'approval/continue', target: 'billing_invoice_cancel', userId: adminId } });
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
        assert.equal(row.clientName, null, '2025-era calls carry no clientInfo per request');
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

    it('an expired link runs nothing: the page says expired, the re-call says expired', async () => {
      const invoiceId = await sentInvoice();
      const client = await v2Client();
      const args = { invoice_id: invoiceId, reason: 'Too late' };
      try {
        const pending = envelopeOf(await client.callTool({ name: 'billing_invoice_cancel', arguments: args }));
        await t.prisma.client.$executeRaw`UPDATE approvals SET expires_at = now() - interval '1 minute' WHERE id = ${pending.approval!.id}::uuid`;
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
