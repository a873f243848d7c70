import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import type { Request } from 'express';
import { McpApprovals as ApprovalService } from '@nest-mcp/admin';
import { RequestContext } from '../../src/context/request-context.js';
import { DEMO_ADMIN_EMAIL } from '../../src/demo/demo-seed.js';
import { WorkspaceScoped } from '../../src/identity/workspace-scoped.decorator.js';
import type { InvoiceStatus } from '../../src/generated/prisma/client.js';
import { IdempotencyKey } from '../../src/billing/common/idempotency-key.js';
import { type McpInvocation, McpTool } from '@nest-mcp/core';
import { type IdempotentCall, MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE, type McpRequestStateStore } from '@nest-mcp/core/extensions';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { callTool } from '@nest-mcp/core/testing';
import { ExpiredRowsCleanup, PrismaIdempotencyStore, PrismaRequestStateStore } from '@nest-mcp/prisma';

const DAY = 86_400_000;
const isoDate = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);
const idem = () => `idem-${randomUUID()}`;

class KeyedPurgeDto {
  @IsString()
  note: string;

  @IdempotencyKey()
  idempotency_key: string;
}

/**
 * A keyed destructive tool on the default confirmation path (in the chat for a client that can
 * elicit): the billing app's keyed destructive tool, the refund, requires the approval page.
 */
@Injectable()
@WorkspaceScoped() // a destructive tool acts in a workspace, where its approval is recorded
class KeyedPurgeTool {
  static runs = 0;

  @McpTool({ name: 'test_keyed_purge', description: 'Test only: purges something, once per key.', annotations: { destructiveHint: true } })
  purge(input: KeyedPurgeDto) {
    return { purged: input.note, run: ++KeyedPurgeTool.runs };
  }
}

@Module({ providers: [KeyedPurgeTool] })
class KeyedPurgeModule {}
const trackingKey = () => `TRK${randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase()}`;

describe('idempotency keys and one-time request state (real database)', () => {
  let t: BillingTestApp;
  let accountant: string;
  let demoId: string;
  let customerId: string;
  let invoiceCounter = 0;

  before(async () => {
    t = await startBillingApp(KeyedPurgeModule);
    accountant = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
    await RequestContext.run({ channel: 'system' }, async () => {
      demoId = (await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } })).id;
      customerId = (
        await t.prisma.client.customer.create({
          data: {
            workspaceId: demoId,
            name: 'Idempotency Test Client',
            email: 'idem-client@demo.test',
          },
        })
      ).id;
    });
  });
  after(() => t.close());

  /** An invoice written straight to the database. */
  function invoice(options: { total?: number; paid?: number; status?: InvoiceStatus } = {}) {
    return RequestContext.run(
      { channel: 'system' },
      async () =>
        await t.prisma.client.invoice.create({
          data: {
            workspaceId: demoId,
            customerId,
            number: `IDEM-${String(++invoiceCounter).padStart(5, '0')}`,
            status: options.status ?? 'sent',
            currency: 'MXN',
            issueDate: new Date(`${isoDate(-10)}T00:00:00.000Z`),
            dueDate: new Date(`${isoDate(20)}T00:00:00.000Z`),
            totalMinor: options.total ?? 100_000,
            paidMinor: options.paid ?? 0,
          },
        }),
    );
  }

  /** A tools/call; its `text` is the HTTP body as sent: replays are compared byte for byte. */
  const call = (token: string, name: string, args: Record<string, unknown>, id: number | string = 1) =>
    callTool(t.mcpUrl, name, args, { token, id });

  const paymentArgs = (invoiceId: string, amount: number, key = idem()) => {
    const reference = trackingKey();
    return {
      invoice_id: invoiceId,
      amount_minor: amount,
      method: 'transfer',
      evidence: {
        raw_extracted: { clave_rastreo: reference },
        tracking_key_candidates: [{ value: reference, source: 'ocr', confidence: 0.97 }],
      },
      idempotency_key: key,
    };
  };
  const register = (args: Record<string, unknown>, id?: number) => call(accountant, 'billing_payment_register', args, id);
  const payments = (invoiceId: string) => t.prisma.client.payment.findMany({ where: { invoiceId } });
  const paidMinor = async (invoiceId: string) => (await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoiceId } })).paidMinor;
  const records = (key: string) => t.prisma.client.mcpIdempotencyRecord.findMany({ where: { key } });
  const audits = (key: string) =>
    t.prisma.client.mcpAuditEvent.findMany({
      where: { method: 'tools/call', arguments: { path: ['idempotency_key'], equals: key } },
      orderBy: { occurredAt: 'asc' },
    });

  it('replays a repeated key with the same arguments byte for byte: the tool ran once, every call is audited', async () => {
    const inv = await invoice({ total: 100_000 });
    const args = paymentArgs(inv.id, 30_000);
    const first = await register(args, 7);
    assert.equal(first.status, 200);
    assert.equal(first.envelope.ok, true, JSON.stringify(first.envelope.errors));
    // Same arguments in another key order: the same call.
    const second = await register(Object.fromEntries(Object.entries(args).reverse()), 7);
    assert.equal(second.text, first.text, 'the repeat gets the first answer, byte for byte');

    assert.equal((await payments(inv.id)).length, 1);
    assert.equal(await paidMinor(inv.id), 30_000);
    const [record] = await records(args.idempotency_key);
    assert.match(record.scope, new RegExp(`^${demoId}:[0-9a-f-]{36}$`), 'the workspace and the caller');
    assert.equal(record.tool, 'billing_payment_register');
    assert.ok(record.result !== null);
    assert.ok(record.expiresAt.getTime() > Date.now() + 23 * 3_600_000, 'kept for IDEMPOTENCY_TTL_HOURS (24 by default)');
    assert.deepEqual(
      (await audits(args.idempotency_key)).map((a) => a.outcome),
      ['success', 'success'],
    );
  });

  it('answers idempotency_key_reused to the same key with other arguments, and writes nothing', async () => {
    const inv = await invoice({ total: 100_000 });
    const args = paymentArgs(inv.id, 30_000);
    const first = await register(args);
    assert.equal(first.envelope.ok, true);
    const [before] = await records(args.idempotency_key);

    const reused = await register({ ...args, amount_minor: 20_000 });
    assert.equal(reused.status, 200);
    assert.equal(reused.isError, true);
    assert.equal(reused.envelope.status, 'failed');
    const [error] = reused.envelope.errors;
    assert.equal(error.code, 'idempotency_key_reused');
    assert.equal(error.field, 'idempotency_key');
    assert.match(error.message, /Use a new key for a new operation/);

    assert.equal((await payments(inv.id)).length, 1);
    assert.equal(await paidMinor(inv.id), 30_000);
    assert.deepEqual(await records(args.idempotency_key), [before], 'the stored answer is untouched');
    const outcomes = (await audits(args.idempotency_key)).map((a) => [a.outcome, a.errorCode]);
    assert.deepEqual(outcomes, [
      ['success', null],
      ['failed', 'idempotency_key_reused'],
    ]);
    // The first call's answer is still what the first arguments get.
    assert.equal((await register(args)).text, first.text);
  });

  it('keeps nothing of a failed first call: a corrected retry with the same key runs', async () => {
    const inv = await invoice({ total: 100_000, paid: 70_000 });
    const key = idem();
    const failed = await register(paymentArgs(inv.id, 40_000, key));
    assert.equal(failed.isError, true);
    assert.equal(failed.envelope.errors[0].code, 'amount_exceeds_balance');
    assert.deepEqual(await records(key), []);

    const corrected = paymentArgs(inv.id, 30_000, key);
    const retried = await register(corrected);
    assert.equal(retried.envelope.ok, true, JSON.stringify(retried.envelope.errors));
    assert.equal(retried.envelope.data.invoice.status, 'paid');
    assert.equal((await register(corrected)).text, retried.text);
    assert.equal((await payments(inv.id)).length, 1);
    assert.equal(await paidMinor(inv.id), 100_000);
  });

  it('runs 50 concurrent identical calls once and gives all 50 the same answer', async (ctx) => {
    const inv = await invoice({ total: 1_000_000 });
    const args = paymentArgs(inv.id, 10_000);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => register(args)));
    const elapsedMs = Math.round(performance.now() - started);

    const executions = (await payments(inv.id)).length;
    ctx.diagnostic(`50 concurrent billing_payment_register calls, one key: ${elapsedMs} ms, ${executions} execution(s)`);
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    assert.equal(answers[0].envelope.ok, true, JSON.stringify(answers[0].body));
    const results = new Set(answers.map((a) => JSON.stringify(a.body.result)));
    assert.equal(results.size, 1, 'one answer for all');
    assert.equal(executions, 1);
    assert.equal(await paidMinor(inv.id), 10_000);
    assert.equal((await audits(args.idempotency_key)).filter((a) => a.outcome === 'success').length, 50);
  });

  it('creates one invoice for 20 concurrent billing_invoice_create calls with one key (optional key)', async () => {
    const key = idem();
    const args = {
      customer_id: customerId,
      currency: 'MXN',
      due_date: isoDate(30),
      lines: [{ description: 'Consulting, March', quantity: 2, unit_price_minor: 50_000 }],
      notes: `idempotency ${key}`,
      idempotency_key: key,
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(accountant, 'billing_invoice_create', args)));
    assert.equal(answers[0].envelope.ok, true, JSON.stringify(answers[0].body));
    assert.equal(new Set(answers.map((a) => JSON.stringify(a.body.result))).size, 1);
    assert.equal(await t.prisma.client.invoice.count({ where: { notes: args.notes } }), 1);
  });

  it('runs again once the stored answer expired (and the key takes the new arguments)', async () => {
    // An upload, not a payment: a payment run twice would meet its own duplicate-reference rule.
    const args = {
      filename: `expiring-${randomUUID()}.txt`,
      content_type: 'text/plain',
      content_base64: Buffer.from('v1').toString('base64'),
      idempotency_key: idem(),
    };
    const upload = (over: Record<string, unknown> = {}) => call(accountant, 'billing_attachment_upload', { ...args, ...over });
    const expire = () =>
      t.prisma.client
        .$executeRaw`UPDATE mcp_idempotency_records SET expires_at = (now() AT TIME ZONE 'UTC') - interval '1 minute' WHERE key = ${args.idempotency_key}`;
    const stored = () => t.prisma.client.attachment.count({ where: { filename: args.filename } });

    const first = await upload();
    assert.equal(first.envelope.ok, true, JSON.stringify(first.envelope));
    assert.equal((await upload()).text, first.text);
    assert.equal(await stored(), 1);

    assert.equal(await expire(), 1);
    const again = await upload();
    assert.equal(again.envelope.ok, true);
    assert.notEqual(again.envelope.data.id, first.envelope.data.id, 'the tool ran again');
    assert.equal(await stored(), 2);
    const [renewed] = await records(args.idempotency_key);
    assert.ok(renewed.expiresAt.getTime() > Date.now() + 23 * 3_600_000, 'a fresh expiry');
    assert.equal((await upload()).text, again.text, 'the new answer is the one kept');

    await expire();
    const other = await upload({ content_base64: Buffer.from('v2').toString('base64') });
    assert.equal(other.envelope.ok, true, 'an expired key is free for other arguments too');
    assert.equal(await stored(), 3);
    assert.equal((await upload({ content_base64: Buffer.from('v2').toString('base64') })).text, other.text);
    assert.equal((await upload()).envelope.errors?.[0]?.code, 'idempotency_key_reused');
  });

  it('keeps the keys of two workspaces apart: the same key and arguments elsewhere run there', async () => {
    const otherToken = await RequestContext.run({ channel: 'system' }, async () => {
      const workspace = await t.prisma.client.workspace.create({ data: { slug: 'idem-other', name: 'Other Idempotency Co' } });
      const user = await t.prisma.client.user.create({ data: { email: 'owner@idem-other.test', name: 'Other Owner' } });
      await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
      return workspace.id;
    }).then(async (workspaceId) => ({
      workspaceId,
      token: await t.token({ email: 'owner@idem-other.test', workspaceSlug: 'idem-other' }),
    }));
    const args = {
      filename: 'receipt.txt',
      content_type: 'text/plain',
      content_base64: Buffer.from('same bytes').toString('base64'),
      idempotency_key: idem(),
    };

    const ours = await call(accountant, 'billing_attachment_upload', args);
    const theirs = await call(otherToken.token, 'billing_attachment_upload', args);
    assert.equal(ours.envelope.ok, true, JSON.stringify(ours.envelope));
    assert.equal(theirs.envelope.ok, true, JSON.stringify(theirs.envelope));
    assert.notEqual(theirs.envelope.data.id, ours.envelope.data.id, 'no answer crosses workspaces');
    const workspaces = (await records(args.idempotency_key)).map((r) => r.scope.split(':')[0]).sort();
    assert.deepEqual(workspaces, [demoId, otherToken.workspaceId].sort());
    assert.equal((await call(otherToken.token, 'billing_attachment_upload', args)).text, theirs.text);
  });

  it("keeps the keys of two members of one workspace apart: replaying another member's key runs the caller's own call", async () => {
    const args = {
      filename: 'member-key.txt',
      content_type: 'text/plain',
      content_base64: Buffer.from('member bytes').toString('base64'),
      idempotency_key: idem(),
    };
    const admin = await t.token();
    const first = await call(accountant, 'billing_attachment_upload', args);
    const replayedByAnother = await call(admin, 'billing_attachment_upload', args);
    assert.equal(first.envelope.ok, true, JSON.stringify(first.envelope));
    assert.equal(replayedByAnother.envelope.ok, true, JSON.stringify(replayedByAnother.envelope));
    assert.notEqual(replayedByAnother.envelope.data.id, first.envelope.data.id, "no member reads another's stored answer");
    const [accountantId, adminId] = await Promise.all(
      ['accountant@demo.test', DEMO_ADMIN_EMAIL].map(
        async (email) => (await t.prisma.client.user.findUniqueOrThrow({ where: { email } })).id,
      ),
    );
    const scopes = (await records(args.idempotency_key)).map((r) => r.scope).sort();
    assert.deepEqual(scopes, [`${demoId}:${accountantId}`, `${demoId}:${adminId}`].sort());
    // Each member's own repeat is still answered from their own stored answer.
    assert.equal((await call(accountant, 'billing_attachment_upload', args)).text, first.text);
  });

  describe('REST writes: the same keys, the same store', () => {
    let admin: string;
    before(async () => {
      admin = await t.token();
    });

    async function rest(token: string, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
      const response = await fetch(`${t.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token), ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
    }

    /** A payment of 60 000 on an invoice of 100 000, registered over MCP. */
    async function payment(): Promise<string> {
      const inv = await invoice({ total: 100_000 });
      const paid = await register(paymentArgs(inv.id, 60_000));
      assert.equal(paid.envelope.ok, true, JSON.stringify(paid.envelope));
      return paid.envelope.data.payment.id;
    }
    const refunds = (paymentId: string) => t.prisma.client.refund.findMany({ where: { paymentId } });
    const refund = (paymentId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
      rest(admin, `/v1/payments/${paymentId}/refunds`, body, headers);

    it('refunds once when a refund is retried with the same idempotency_key: the repeat gets the same status and body, marked replayed', async () => {
      const paymentId = await payment();
      const body = { amount_minor: 10_000, reason: 'Duplicate transfer', idempotency_key: idem() };
      const first = await refund(paymentId, body);
      assert.equal(first.status, 201, first.text);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const again = await refund(paymentId, body);
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text, 'the stored answer, byte for byte');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await refunds(paymentId)).length, 1);
      const [record] = await records(body.idempotency_key);
      assert.match(record.scope, new RegExp(`^${demoId}:[0-9a-f-]{36}$`));
      assert.equal(record.tool, 'POST /v1/payments/:payment_id/refunds');
    });

    it('accepts the key as an Idempotency-Key header (or in both places when equal): one refund', async () => {
      const paymentId = await payment();
      const key = idem();
      const body = { amount_minor: 5_000, reason: 'Overpayment returned' };
      const first = await refund(paymentId, body, { 'idempotency-key': key });
      assert.equal(first.status, 201, first.text);
      const again = await refund(paymentId, body, { 'idempotency-key': key });
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const both = await refund(paymentId, { ...body, idempotency_key: key }, { 'idempotency-key': key });
      assert.equal(both.text, first.text, 'the key may move between header and body');
      assert.equal((await refunds(paymentId)).length, 1);
    });

    it('refuses a header and a body key that differ with 400 naming both, and does nothing', async () => {
      const paymentId = await payment();
      const answer = await refund(
        paymentId,
        { amount_minor: 5_000, reason: 'Overpayment returned', idempotency_key: idem() },
        { 'idempotency-key': idem() },
      );
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'idempotency_key_conflict');
      assert.match(answer.body.message, /Idempotency-Key header and the idempotency_key body field differ/);
      assert.equal((await refunds(paymentId)).length, 0);
    });

    it('runs concurrent repeats once and gives each the same answer', async () => {
      const paymentId = await payment();
      const body = { amount_minor: 1_000, reason: 'Bank fee returned', idempotency_key: idem() };
      const answers = await Promise.all(Array.from({ length: 5 }, () => refund(paymentId, body)));
      assert.deepEqual(
        answers.map((a) => a.status),
        [201, 201, 201, 201, 201],
      );
      assert.equal(new Set(answers.map((a) => a.text)).size, 1);
      assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 4);
      assert.equal((await refunds(paymentId)).length, 1);
    });

    it('answers 409 idempotency_key_reused to the same key with another amount, and refunds nothing more', async () => {
      const paymentId = await payment();
      const key = idem();
      const first = await refund(paymentId, { amount_minor: 10_000, reason: 'Duplicate transfer', idempotency_key: key });
      assert.equal(first.status, 201, first.text);
      const other = await refund(paymentId, { amount_minor: 20_000, reason: 'Duplicate transfer', idempotency_key: key });
      assert.equal(other.status, 409);
      assert.equal(other.body.code, 'idempotency_key_reused');
      assert.match(other.body.message, /Use a new key for a new operation/);
      assert.deepEqual(
        (await refunds(paymentId)).map((r) => r.amountMinor),
        [10_000],
      );
    });

    it('keeps nothing of a failed request: a corrected retry with the same key runs', async () => {
      const paymentId = await payment();
      const key = idem();
      const tooMuch = await refund(paymentId, { amount_minor: 70_000, reason: 'Duplicate transfer', idempotency_key: key });
      assert.equal(tooMuch.status, 422, tooMuch.text);
      assert.deepEqual(await records(key), []);
      const corrected = await refund(paymentId, { amount_minor: 60_000, reason: 'Duplicate transfer', idempotency_key: key });
      assert.equal(corrected.status, 201, corrected.text);
      assert.equal((await refunds(paymentId)).length, 1);
    });
    it('refuses a replay of an admin refund to a token without billing:admin (the guards run before the key)', async () => {
      const paymentId = await payment();
      const body = { amount_minor: 2_000, reason: 'Duplicate transfer', idempotency_key: idem() };
      const first = await refund(paymentId, body);
      assert.equal(first.status, 201, first.text);
      const accountantRepeat = await rest(accountant, `/v1/payments/${paymentId}/refunds`, body);
      assert.equal(accountantRepeat.status, 403);
      assert.equal(accountantRepeat.headers.get('idempotent-replayed'), null);
      assert.ok(!accountantRepeat.text.includes(first.body.refund.id));
    });

    it('documents the Idempotency-Key header on the keyed routes in Swagger', async () => {
      const document = (await (await fetch(`${t.baseUrl}/docs-json`)).json()) as any;
      const headerOf = (path: string) =>
        (document.paths[path].post.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
      for (const path of ['/v1/payments/{payment_id}/refunds', '/v1/payments', '/v1/invoices', '/v1/customers', '/v1/attachments']) {
        assert.ok(headerOf(path), `${path} documents Idempotency-Key`);
      }
    });
  });

  describe('authorization before the key', () => {
    /**
     * Admin of a workspace of their own, viewer in demo; the token is bound to no workspace, so
     * nothing short of the guards (which resolve `workspace_id`) knows that demo allows only reads.
     */
    let viewerInDemo: string;
    before(async () => {
      await RequestContext.run({ channel: 'system' }, async () => {
        const own = await t.prisma.client.workspace.create({ data: { slug: 'idem-own', name: 'Own Idempotency Co' } });
        const user = await t.prisma.client.user.create({ data: { email: 'two-roles@idem.test', name: 'Two Roles' } });
        await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: own.id, role: 'admin' } });
        await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: demoId, role: 'viewer' } });
      });
      viewerInDemo = await t.token({ email: 'two-roles@idem.test', scopes: ['billing:read', 'billing:write'], workspaceSlug: undefined });
    });
    const invoiceArgs = (key = idem()) => ({
      workspace_id: 'demo',
      customer_id: customerId,
      currency: 'MXN',
      due_date: isoDate(30),
      lines: [{ description: 'Audit, April', quantity: 1, unit_price_minor: 70_000 }],
      idempotency_key: key,
    });

    it('refuses a viewer who repeats a keyed create: the role refusal, not the stored answer', async () => {
      const args = invoiceArgs();
      const first = await call(accountant, 'billing_invoice_create', args);
      assert.equal(first.envelope.ok, true, JSON.stringify(first.body));
      const replay = await call(viewerInDemo, 'billing_invoice_create', args);
      assert.equal(replay.isError, true, replay.text);
      assert.equal(replay.envelope.errors[0].code, 'forbidden_by_role');
      assert.match(replay.envelope.errors[0].message, /role does not allow billing:write/);
      assert.ok(!replay.text.includes(first.envelope.data.id), 'nothing of the first answer');
    });

    it('tells another role nothing about a used key: the same refusal as for a fresh key', async () => {
      const args = invoiceArgs();
      assert.equal((await call(accountant, 'billing_invoice_create', args)).envelope.ok, true);
      const reused = await call(viewerInDemo, 'billing_invoice_create', { ...args, notes: 'other arguments' });
      const fresh = await call(viewerInDemo, 'billing_invoice_create', { ...args, notes: 'other arguments', idempotency_key: idem() });
      assert.equal(reused.envelope.errors[0].code, 'forbidden_by_role', reused.text);
      assert.deepEqual(reused.envelope.errors, fresh.envelope.errors);
    });

    it('audits a replay in its workspace', async () => {
      const args = invoiceArgs();
      const first = await call(accountant, 'billing_invoice_create', args);
      assert.equal((await call(accountant, 'billing_invoice_create', args)).text, first.text);
      const rows = await audits(args.idempotency_key);
      assert.deepEqual(
        rows.map((a) => [a.outcome, a.workspaceId]),
        [
          ['success', demoId],
          ['success', demoId],
        ],
      );
    });
  });

  it('leaves the key of a keyed destructive call free while it waits for confirmation, and replays it once confirmed and completed', async () => {
    const admin = await t.token();
    const adminId = (await t.prisma.client.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } })).id;
    const inv = await invoice({ total: 100_000 });
    const paid = await register(paymentArgs(inv.id, 60_000));
    const paymentId = paid.envelope.data.payment.id;
    const args = { payment_id: paymentId, amount_minor: 10_000, reason: 'Duplicate transfer', idempotency_key: idem() };
    const refund = () => call(admin, 'billing_payment_refund', args);

    const pending = await refund();
    assert.equal(pending.envelope.status, 'pending_confirmation', pending.text);
    assert.deepEqual(await records(args.idempotency_key), [], 'a pending call keeps no answer');
    const decided = await RequestContext.run({ channel: 'panel' }, () =>
      t.app
        .get(ApprovalService)
        .decide(pending.envelope.approval!.id, adminId, 'continue', { headers: {}, query: {} } as unknown as Request),
    );
    assert.equal(decided.kind, 'executed');

    const completed = await refund();
    assert.equal(completed.envelope.ok, true, completed.text);
    assert.equal((await refund()).text, completed.text, 'the completed answer is replayed');
    assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 1);
  });

  it('replays a keyed destructive call confirmed in the chat without asking again; the question itself kept no answer', async () => {
    const admin = await t.token();
    const args = { note: 'stale exports', idempotency_key: idem() };
    /** A 2026 client that declared form elicitation. */
    const ask = (extra: Record<string, unknown> = {}) =>
      callTool(t.mcpUrl, 'test_keyed_purge', args, { token: admin, capabilities: { elicitation: { form: {} } }, params: extra });
    const runsBefore = KeyedPurgeTool.runs;

    const question = await ask();
    assert.equal(question.body.result.resultType, 'input_required', question.text);
    assert.deepEqual(await records(args.idempotency_key), []);
    const confirmed = await ask({
      requestState: question.body.result.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    assert.equal(confirmed.body.result.structuredContent?.ok ?? confirmed.envelope.ok, true, confirmed.text);
    const repeat = await ask();
    assert.equal(
      JSON.stringify(repeat.body.result.content),
      JSON.stringify(confirmed.body.result.content),
      'the stored answer, not a new question',
    );
    assert.equal(KeyedPurgeTool.runs - runsBefore, 1, 'the tool ran once');
  });

  describe('the store outside a transaction (defensive: no call that may write claims so)', () => {
    const outsideCall = (key: string, argumentsHash = 'hash-1'): IdempotentCall => ({
      tool: 'test_tool',
      key,
      argumentsHash,
      invocation: { httpRequest: { headers: {}, query: {} } } as unknown as McpInvocation,
    });
    const result = { content: [{ type: 'text' as const, text: '{"ok":true}' }] };

    it('is the provider of MCP_IDEMPOTENCY_STORE', () => {
      assert.ok(t.app.get(MCP_IDEMPOTENCY_STORE) instanceof PrismaIdempotencyStore);
    });

    it('commits the claim at once; a concurrent claim waits for the answer, other arguments are refused', async () => {
      const store = t.app.get<PrismaIdempotencyStore>(MCP_IDEMPOTENCY_STORE);
      await RequestContext.run({ channel: 'system' }, async () => {
        const key = idem();
        assert.deepEqual(await store.claim(outsideCall(key)), { kind: 'first' });
        assert.deepEqual(await store.claim(outsideCall(key, 'hash-2')), { kind: 'mismatch' });
        const waiting = store.claim(outsideCall(key));
        setTimeout(() => void store.save(outsideCall(key), result), 150);
        assert.deepEqual(await waiting, { kind: 'replay', result });

        const released = idem();
        assert.deepEqual(await store.claim(outsideCall(released)), { kind: 'first' });
        await store.release(outsideCall(released));
        assert.deepEqual(await records(released), []);
        assert.deepEqual(await store.claim(outsideCall(released)), { kind: 'first' });
        assert.equal((await records(released))[0].scope, '-:-', 'no workspace, no caller: the shared scope');
      });
    });
  });

  it('deletes expired records and request-state uses in its cleanup, and nothing else', async () => {
    const cleanup = t.app.get(ExpiredRowsCleanup);
    const [expired, live] = [randomUUID(), randomUUID()];
    await t.prisma.client.$executeRaw`
      INSERT INTO mcp_idempotency_records (scope, tool, key, arguments_hash, expires_at)
      VALUES ('-', 'test_tool', ${expired}, 'h', (now() AT TIME ZONE 'UTC') - interval '1 second'),
             ('-', 'test_tool', ${live}, 'h', (now() AT TIME ZONE 'UTC') + interval '1 hour')`;
    await t.prisma.client.$executeRaw`
      INSERT INTO mcp_request_state_uses (id, expires_at)
      VALUES (${expired}, (now() AT TIME ZONE 'UTC') - interval '1 second'), (${live}, (now() AT TIME ZONE 'UTC') + interval '1 hour')`;
    assert.ok((await cleanup.run()) >= 2);
    assert.deepEqual(
      (await t.prisma.client.mcpIdempotencyRecord.findMany({ where: { key: { in: [expired, live] } } })).map((r) => r.key),
      [live],
    );
    assert.deepEqual(
      (await t.prisma.client.mcpRequestStateUse.findMany({ where: { id: { in: [expired, live] } } })).map((r) => r.id),
      [live],
    );
  });

  describe('PrismaRequestStateStore (one-time requestState)', () => {
    let store: McpRequestStateStore;
    before(() => {
      store = t.app.get(MCP_REQUEST_STATE_STORE);
    });
    const inContext = <T>(work: () => Promise<T>) => RequestContext.run({ channel: 'system' }, work);

    it('is the provider of MCP_REQUEST_STATE_STORE', () => {
      assert.ok(store instanceof PrismaRequestStateStore);
    });

    it('accepts an id once and keeps its expiry', async () => {
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + 600_000);
      assert.equal(await store.consume(id, expiresAt), true);
      assert.equal(await store.consume(id, expiresAt), false);
      const row = await t.prisma.client.mcpRequestStateUse.findUniqueOrThrow({ where: { id } });
      assert.equal(row.expiresAt.toISOString(), expiresAt.toISOString());
    });

    it('accepts exactly one of concurrent uses, also from concurrent transactions', async () => {
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + 600_000);
      const plain = await Promise.all(Array.from({ length: 20 }, () => store.consume(id, expiresAt)));
      assert.equal(plain.filter(Boolean).length, 1);

      const inTransactions = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => inContext(() => t.prisma.transaction(() => store.consume(inTransactions, expiresAt)))),
      );
      assert.equal(results.filter(Boolean).length, 1);
    });

    it('frees the id again when the call that used it rolls back', async () => {
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + 600_000);
      await assert.rejects(
        inContext(() =>
          t.prisma.transaction(async () => {
            assert.equal(await store.consume(id, expiresAt), true);
            throw new Error('the call failed');
          }),
        ),
        /the call failed/,
      );
      assert.equal(await store.consume(id, expiresAt), true);
      assert.equal(await store.consume(id, expiresAt), false);
    });
  });
});
