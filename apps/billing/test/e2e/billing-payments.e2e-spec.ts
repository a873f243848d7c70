import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RequestContext } from '../../src/context/request-context.js';
import type { InvoiceStatus } from '../../src/generated/prisma/client.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { restCall } from '../support/rest-http.js';
import { callTool, toolsByName, type ToolAnswer } from '@nest-mcp/core/testing';

const DAY = 86_400_000;
const isoDate = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

/** Evidence that names its tracking key unambiguously. */
function evidence(key: string, extra: Array<{ value: string; source: string; confidence: number }> = []) {
  return {
    raw_extracted: { monto: '$350.00', banco_destino: 'BBVA', clave_rastreo: key, detalle: { hora: '10:32', ordenante: 'ACME' } },
    tracking_key_candidates: [{ value: key, source: 'ocr', confidence: 0.97 }, ...extra],
  };
}

const key = () => `TRK${randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase()}`;
const idem = () => `idem-${randomUUID()}`;

/**
 * A role refusal over MCP (docs/protocol.md, "Refusals"): no HTTP error and no scope challenge (a
 * new token would not help), but a tool result with `isError: true` the model can read.
 */
function assertRefusedByRole(answer: ToolAnswer, scope: string) {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.isError, true);
  assert.equal(answer.headers.get('www-authenticate'), null);
  assert.equal(answer.envelope.ok, false);
  assert.deepEqual(answer.envelope.errors, [
    { code: 'forbidden_by_role', message: `Your role does not allow ${scope} in this workspace; ask a workspace admin`, retryable: false },
  ]);
}

describe('billing payments and refunds: REST and MCP (real database)', () => {
  let t: BillingTestApp;
  let admin: string;
  let accountant: string;
  let viewer: string;
  let other: string;
  let demoId: string;
  let otherId: string;
  let demoCustomerId: string;
  let otherCustomerId: string;
  let invoiceCounter = 0;

  before(async () => {
    t = await startBillingApp();
    admin = await t.token();
    accountant = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
    viewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read'] });
    await RequestContext.run({ channel: 'system' }, async () => {
      const demo = await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
      demoId = demo.id;
      const workspace = await t.prisma.client.workspace.create({ data: { slug: 'pay-other', name: 'Other Payments Co' } });
      otherId = workspace.id;
      const user = await t.prisma.client.user.create({ data: { email: 'owner@pay-other.test', name: 'Other Owner' } });
      await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
      demoCustomerId = (
        await t.prisma.client.customer.create({
          data: {
            workspaceId: demoId,
            name: 'Payments Test Client',
            email: 'payments-client@demo.test',
          },
        })
      ).id;
      otherCustomerId = (
        await t.prisma.client.customer.create({
          data: { workspaceId: otherId, name: 'Other Client', email: 'client@pay-other.test' },
        })
      ).id;
    });
    other = await t.token({ email: 'owner@pay-other.test', workspaceSlug: 'pay-other' });
  });
  after(() => t.close());

  /** An invoice written straight to the database (invoices are another module's business). */
  async function invoice(
    options: { total?: number; paid?: number; status?: InvoiceStatus; currency?: string; due?: string; workspace?: 'demo' | 'other' } = {},
  ) {
    const workspace = options.workspace ?? 'demo';
    // Prisma queries are lazy: awaited inside the context, or they would run (unstamped) outside it.
    return RequestContext.run(
      { channel: 'system' },
      async () =>
        await t.prisma.client.invoice.create({
          data: {
            workspaceId: workspace === 'demo' ? demoId : otherId,
            customerId: workspace === 'demo' ? demoCustomerId : otherCustomerId,
            number: `PAYTEST-${String(++invoiceCounter).padStart(5, '0')}`,
            status: options.status ?? 'sent',
            currency: options.currency ?? 'MXN',
            issueDate: new Date(`${isoDate(-10)}T00:00:00.000Z`),
            dueDate: new Date(`${options.due ?? isoDate(20)}T00:00:00.000Z`),
            totalMinor: options.total ?? 100_000,
            paidMinor: options.paid ?? 0,
          },
        }),
    );
  }

  const mcp = (token: string, name: string, args: Record<string, unknown>) => callTool(t.mcpUrl, name, args, { token });

  const rest = (token: string | undefined, method: string, path: string, body?: unknown) => restCall(t, token, method, path, body);

  const register = (token: string, args: Record<string, unknown>) => mcp(token, 'billing_payment_register', args);
  const paymentArgs = (invoiceId: string, amount: number, trackingKey = key()) => ({
    invoice_id: invoiceId,
    amount_minor: amount,
    method: 'transfer',
    evidence: evidence(trackingKey),
    idempotency_key: idem(),
  });
  const paymentCount = (invoiceId: string) => t.prisma.client.payment.count({ where: { invoiceId } });
  const dbInvoice = (id: string) => t.prisma.client.invoice.findUniqueOrThrow({ where: { id } });

  describe('discovery', () => {
    it('lists register for writers and refund (destructive) only for admins, with real object/array schemas', async () => {
      const list = (token: string) => toolsByName(t.mcpUrl, token);
      const asAdmin = await list(admin);
      const asAccountant = await list(accountant);
      const asViewer = await list(viewer);
      assert.ok(asAdmin.has('billing_payment_register') && asAdmin.has('billing_payment_refund'));
      assert.ok(asAccountant.has('billing_payment_register') && !asAccountant.has('billing_payment_refund'));
      assert.ok(!asViewer.has('billing_payment_register') && !asViewer.has('billing_payment_refund'));

      const registerTool = asAdmin.get('billing_payment_register');
      assert.deepEqual(registerTool.annotations, {
        title: 'Register a payment against an invoice',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      for (const part of ['When to use:', 'Never use for:', 'Side effects:', 'Success criteria:', 'Fallback:']) {
        assert.ok(registerTool.description.includes(part), `register description has "${part}"`);
        assert.ok(asAdmin.get('billing_payment_refund').description.includes(part), `refund description has "${part}"`);
      }
      const input = registerTool.inputSchema;
      assert.deepEqual([...input.required].sort(), ['amount_minor', 'evidence', 'idempotency_key', 'invoice_id', 'method']);
      assert.equal(input.additionalProperties, false);
      assert.equal(input.properties.evidence.type, 'object');
      assert.equal(input.properties.evidence.properties.raw_extracted.type, 'object');
      const candidates = input.properties.evidence.properties.tracking_key_candidates;
      assert.equal(candidates.type, 'array');
      assert.equal(candidates.items.type, 'object');
      assert.deepEqual(candidates.items.required, ['value', 'source', 'confidence']);
      assert.equal(candidates.items.properties.confidence.type, 'number');
      assert.equal(candidates.items.properties.confidence.maximum, 1);
      assert.equal(candidates.items.properties.confidence.minimum, 0);
      assert.deepEqual(input.properties.method.enum, ['transfer', 'card', 'cash', 'check', 'other']);
      assert.equal(input.properties.amount_minor.type, 'integer');
      assert.match(input.properties.idempotency_key.description, /Reuse the same key when you retry/);
      assert.equal(input.properties.idempotency_key.minLength, 8);
      assert.equal(input.properties.idempotency_key.maxLength, 128);
      assert.ok(registerTool.outputSchema.properties.data.properties.payment.properties.id);
      assert.ok(registerTool.outputSchema.properties.data.properties.invoice.properties.balance_minor);

      const refundTool = asAdmin.get('billing_payment_refund');
      assert.equal(refundTool.annotations.destructiveHint, true);
      assert.deepEqual([...refundTool.inputSchema.required].sort(), ['idempotency_key', 'payment_id', 'reason']);
      assert.equal(refundTool.inputSchema.properties.reason.minLength, 5);
      assert.equal(refundTool.inputSchema.properties.reason.maxLength, 500);
    });
  });

  describe('billing_payment_register', () => {
    it('registers a partial payment over MCP: verifiable ids, new balance, evidence kept as real JSON, created_via mcp, audited', async () => {
      const inv = await invoice({ total: 100_000 });
      const trackingKey = key();
      const { status, envelope, isError, body } = await register(accountant, {
        ...paymentArgs(inv.id, 35_000, trackingKey),
        evidence: evidence(trackingKey, [{ value: 'MAYBE-OTHER', source: 'email', confidence: 0.4 }]),
        paid_at: isoDate(-1),
      });
      assert.equal(status, 200);
      assert.equal(isError, false);
      assert.equal(envelope.ok, true);
      assert.equal(envelope.status, 'success');
      assert.equal(envelope.safety, 'mutation');
      assert.deepEqual(body.result.structuredContent, envelope);
      const { payment, invoice: after } = envelope.data;
      assert.equal(payment.invoice_id, inv.id);
      assert.equal(payment.amount_minor, 35_000);
      assert.equal(payment.currency, 'MXN');
      assert.equal(payment.reference, trackingKey, 'the confident candidate became the reference');
      assert.equal(payment.refundable_minor, 35_000);
      assert.equal(payment.created_via, 'mcp');
      assert.equal(payment.paid_at, `${isoDate(-1)}T00:00:00.000Z`);
      assert.deepEqual(after, {
        id: inv.id,
        number: inv.number,
        status: 'sent',
        currency: 'MXN',
        total_minor: 100_000,
        paid_minor: 35_000,
        balance_minor: 65_000,
      });

      const row = await t.prisma.client.payment.findUniqueOrThrow({ where: { id: payment.id } });
      assert.equal(row.workspaceId, demoId);
      assert.equal(row.createdVia, 'mcp');
      assert.equal(row.updatedVia, 'mcp');
      assert.equal(row.method, 'transfer');
      const stored = row.evidence as any;
      assert.deepEqual(stored.raw_extracted.detalle, { hora: '10:32', ordenante: 'ACME' });
      assert.equal(stored.tracking_key_candidates.length, 2);
      const invRow = await dbInvoice(inv.id);
      assert.equal(invRow.paidMinor, 35_000);
      assert.equal(invRow.status, 'sent');
      assert.equal(invRow.updatedVia, 'mcp');
      const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'billing_payment_register', outcome: 'success' },
        orderBy: { occurredAt: 'desc' },
      });
      assert.equal(audit.workspaceId, demoId);
      assert.equal((audit.arguments as any).invoice_id, inv.id);
    });

    it('marks the invoice paid when the payment covers the balance', async () => {
      const inv = await invoice({ total: 50_000, paid: 20_000 });
      const { envelope } = await register(accountant, { ...paymentArgs(inv.id, 30_000), currency: 'MXN' });
      assert.equal(envelope.ok, true, JSON.stringify(envelope.errors));
      assert.equal(envelope.data.invoice.status, 'paid');
      assert.equal(envelope.data.invoice.balance_minor, 0);
      assert.equal((await dbInvoice(inv.id)).status, 'paid');
      assert.equal((await dbInvoice(inv.id)).paidMinor, 50_000);
    });

    it('gives the same answer over REST (201) as over MCP, stamped created_via api', async () => {
      const viaMcp = await invoice({ total: 80_000, status: 'overdue', due: isoDate(-3) });
      const viaRest = await invoice({ total: 80_000, status: 'overdue', due: isoDate(-3) });
      const mcpAnswer = await register(accountant, { ...paymentArgs(viaMcp.id, 80_000), method: 'card', paid_at: '2026-01-15T10:00:00Z' });
      const restAnswer = await rest(accountant, 'POST', '/v1/payments', {
        ...paymentArgs(viaRest.id, 80_000),
        method: 'card',
        paid_at: '2026-01-15T10:00:00Z',
      });
      assert.equal(restAnswer.status, 201);
      const strip = (data: any) => ({
        payment: { ...data.payment, id: '*', invoice_id: '*', reference: '*', created_at: '*', created_via: '*', updated_via: '*' },
        invoice: { ...data.invoice, id: '*', number: '*' },
      });
      assert.deepEqual(strip(restAnswer.body), strip(mcpAnswer.envelope.data));
      assert.equal(restAnswer.body.invoice.status, 'paid');
      assert.equal(restAnswer.body.payment.created_via, 'api');
      assert.equal(mcpAnswer.envelope.data.payment.created_via, 'mcp');
      const rows = await t.prisma.client.payment.findMany({ where: { invoiceId: { in: [viaMcp.id, viaRest.id] } } });
      assert.deepEqual(rows.map((r) => r.createdVia).sort(), ['api', 'mcp']);
    });

    it('uses the reference the user confirmed, whatever the candidates say', async () => {
      const inv = await invoice();
      const { envelope } = await register(accountant, {
        ...paymentArgs(inv.id, 1_000),
        reference: '  CONFIRMED-123  ',
        evidence: { raw_extracted: {}, tracking_key_candidates: [] },
      });
      assert.equal(envelope.ok, true, JSON.stringify(envelope.errors));
      assert.equal(envelope.data.payment.reference, 'CONFIRMED-123');
    });

    describe('validation: actionable, per field, nothing written', () => {
      const cases: Array<[string, (args: any) => void, string, RegExp]> = [
        [
          'evidence as a JSON string',
          (a) => (a.evidence = JSON.stringify(a.evidence)),
          'evidence',
          /`evidence` must be a JSON object .*not a string containing JSON/,
        ],
        [
          'raw_extracted as a JSON string',
          (a) => (a.evidence.raw_extracted = '{"monto":"$350.00"}'),
          'evidence.raw_extracted',
          /`evidence.raw_extracted` must be a JSON object/,
        ],
        [
          'tracking_key_candidates as a JSON string',
          (a) => (a.evidence.tracking_key_candidates = JSON.stringify(a.evidence.tracking_key_candidates)),
          'evidence.tracking_key_candidates',
          /`evidence.tracking_key_candidates` must be an array of \{value, source, confidence\} objects/,
        ],
        [
          'confidence above 1',
          (a) => (a.evidence.tracking_key_candidates[0].confidence = 95),
          'evidence.tracking_key_candidates[0].confidence',
          /must be a number from 0 to 1/,
        ],
        [
          'confidence as a word',
          (a) => (a.evidence.tracking_key_candidates[0].confidence = 'high'),
          'evidence.tracking_key_candidates[0].confidence',
          /not a word like "high"/,
        ],
        ['a missing idempotency_key', (a) => delete a.idempotency_key, 'idempotency_key', /reuse the same key when you retry/],
        ['a short idempotency_key', (a) => (a.idempotency_key = 'abc'), 'idempotency_key', /8–128 characters/],
        ['an amount in decimals', (a) => (a.amount_minor = 350.5), 'amount_minor', /integer number of minor units/],
        ['a zero amount', (a) => (a.amount_minor = 0), 'amount_minor', /greater than 0/],
        ['an unknown method', (a) => (a.method = 'bitcoin'), 'method', /one of: transfer, card, cash, check, other/],
        ['a non-UUID invoice id', (a) => (a.invoice_id = 'INV-000001'), 'invoice_id', /invoice UUID/],
        ['a bad currency', (a) => (a.currency = 'pesos'), 'currency', /3-letter uppercase ISO 4217/],
        ['a bad paid_at', (a) => (a.paid_at = '15/01/2026'), 'paid_at', /ISO 8601/],
        ['an undeclared argument', (a) => (a.notes = 'x'), 'notes', /not an accepted argument/],
      ];
      for (const [label, mutate, field, message] of cases) {
        it(`refuses ${label} over MCP and REST`, async () => {
          const inv = await invoice();
          const args: any = paymentArgs(inv.id, 1_000);
          mutate(args);
          const { envelope, isError } = await register(accountant, args);
          assert.equal(isError, true);
          assert.equal(envelope.status, 'failed');
          // The first message on the field is the one that says what to fix (type before range).
          const error = envelope.errors.find((e) => e.field === field);
          assert.ok(error, `an error on ${field}: ${JSON.stringify(envelope.errors)}`);
          assert.equal(error.code, 'invalid_argument');
          assert.match(error.message, message);
          assert.match(error.message, /call billing_payment_register again/);
          const viaRest = await rest(accountant, 'POST', '/v1/payments', args);
          assert.equal(viaRest.status, 400);
          // Named by the same path as over MCP (`evidence.tracking_key_candidates[0].confidence`).
          assert.ok(
            (viaRest.body.errors as Array<{ field: string }>).some((e) => e.field === field),
            JSON.stringify(viaRest.body.errors),
          );
          assert.equal(await paymentCount(inv.id), 0);
        });
      }
    });

    describe('business rules', () => {
      it('refuses more than the outstanding balance, saying the balance (en/es)', async () => {
        const inv = await invoice({ total: 100_000, paid: 70_000 });
        const { envelope, isError } = await register(accountant, paymentArgs(inv.id, 40_000));
        assert.equal(isError, true);
        const [error] = envelope.errors;
        assert.equal(error.code, 'amount_exceeds_balance');
        assert.equal(error.field, 'amount_minor');
        assert.match(error.message, /outstanding balance of invoice PAYTEST-\d+: 30000 \(300\.00 MXN\)/);
        assert.match(error.message_es, /saldo pendiente .*300\.00 MXN/);
        const viaRest = await rest(accountant, 'POST', '/v1/payments', paymentArgs(inv.id, 40_000));
        assert.equal(viaRest.status, 422);
        assert.equal(viaRest.body.code, 'amount_exceeds_balance');
        assert.equal((await dbInvoice(inv.id)).paidMinor, 70_000);
        assert.equal(await paymentCount(inv.id), 0);
      });

      for (const [status, code, message] of [
        ['draft', 'invoice_not_payable', /still a draft/],
        ['cancelled', 'invoice_not_payable', /is cancelled/],
        ['paid', 'invoice_already_paid', /already fully paid/],
      ] as const) {
        it(`refuses a payment on a ${status} invoice`, async () => {
          const inv = await invoice({ status, paid: status === 'paid' ? 100_000 : 0 });
          const { envelope } = await register(accountant, paymentArgs(inv.id, 1_000));
          assert.equal(envelope.errors[0].code, code);
          assert.match(envelope.errors[0].message, message);
          assert.ok(envelope.errors[0].message_es);
          assert.equal(await paymentCount(inv.id), 0);
        });
      }

      it('never overpays an invoice when two payments race for the same balance', async () => {
        const inv = await invoice({ total: 10_000 });
        const answers = await Promise.all([
          register(accountant, paymentArgs(inv.id, 6_000)),
          rest(accountant, 'POST', '/v1/payments', paymentArgs(inv.id, 6_000)),
          register(accountant, paymentArgs(inv.id, 6_000)),
        ]);
        const succeeded = [answers[0].envelope.ok, answers[1].status === 201, answers[2].envelope.ok].filter(Boolean);
        assert.equal(succeeded.length, 1, JSON.stringify(answers.map((a: any) => a.envelope?.errors ?? a.body)));
        const codes = [answers[0].envelope.errors[0]?.code, answers[1].body.code, answers[2].envelope.errors[0]?.code].filter(Boolean);
        assert.ok(
          codes.every((code) => code === 'amount_exceeds_balance' || code === 'concurrent_update'),
          codes.join(),
        );
        assert.equal((await dbInvoice(inv.id)).paidMinor, 6_000);
        assert.equal(await paymentCount(inv.id), 1);
      });

      it('refuses a currency other than the invoice currency', async () => {
        const inv = await invoice({ currency: 'USD' });
        const { envelope } = await register(accountant, { ...paymentArgs(inv.id, 1_000), currency: 'MXN' });
        assert.equal(envelope.errors[0].code, 'currency_mismatch');
        assert.equal(envelope.errors[0].field, 'currency');
        assert.match(envelope.errors[0].message, /is in USD, not MXN/);
      });

      it('refuses a paid_at in the future', async () => {
        const inv = await invoice();
        const { envelope } = await register(accountant, { ...paymentArgs(inv.id, 1_000), paid_at: isoDate(3) });
        assert.equal(envelope.errors[0].code, 'paid_at_in_future');
      });

      it('refuses to register the same tracking key twice, naming the existing payment', async () => {
        const first = await invoice();
        const second = await invoice();
        const trackingKey = key();
        const registered = await register(accountant, paymentArgs(first.id, 1_000, trackingKey));
        const again = await register(accountant, paymentArgs(second.id, 1_000, trackingKey.toLowerCase()));
        assert.equal(again.envelope.errors[0].code, 'duplicate_reference');
        assert.ok(again.envelope.errors[0].message.includes(registered.envelope.data.payment.id));
        assert.equal(await paymentCount(second.id), 0);
      });

      it('answers an unknown invoice with not_found and what to do', async () => {
        const missing = randomUUID();
        const { envelope } = await register(accountant, paymentArgs(missing, 1_000));
        assert.equal(envelope.errors[0].code, 'not_found');
        assert.match(envelope.errors[0].message, new RegExp(`Invoice ${missing} was not found in this workspace; check the invoice id`));
        assert.equal((await rest(accountant, 'POST', '/v1/payments', paymentArgs(missing, 1_000))).status, 404);
      });

      it('needs billing:write: a viewer is refused over MCP (a tool error) and REST (403)', async () => {
        const inv = await invoice();
        assertRefusedByRole(await register(viewer, paymentArgs(inv.id, 1_000)), 'billing:write');
        assert.equal((await rest(viewer, 'POST', '/v1/payments', paymentArgs(inv.id, 1_000))).status, 403);
        assert.equal(await paymentCount(inv.id), 0);
      });
    });

    describe('needs_more_info when the evidence does not identify the payment', () => {
      it('asks which of two confident but different tracking keys it is; nothing written; audited as failed', async () => {
        const inv = await invoice();
        const before = await t.prisma.client.payment.count();
        const args = {
          ...paymentArgs(inv.id, 10_000),
          evidence: {
            raw_extracted: { nota: 'two keys on the receipt' },
            tracking_key_candidates: [
              { value: 'KEY-AAA-111', source: 'ocr', confidence: 0.91 },
              { value: 'KEY-BBB-222', source: 'email', confidence: 0.88 },
              { value: 'KEY-CCC-333', source: 'ocr', confidence: 0.2 },
            ],
          },
        };
        const { envelope, isError, status } = await register(accountant, args);
        assert.equal(status, 200);
        assert.equal(isError, true);
        assert.equal(envelope.ok, false);
        assert.equal(envelope.status, 'needs_more_info');
        assert.equal(envelope.errors[0].code, 'ambiguous_tracking_key');
        assert.equal(envelope.errors[0].field, 'reference');
        assert.match(envelope.errors[0].message, /several tracking key candidates are confident but differ/);
        assert.match(envelope.errors[0].message_es, /clave de rastreo/);
        assert.match(envelope.nextQuestion!, /Which of these is the bank tracking key/);
        for (const value of ['KEY-AAA-111', 'KEY-BBB-222', 'KEY-CCC-333']) assert.ok(envelope.nextQuestion!.includes(value), value);

        assert.equal(await t.prisma.client.payment.count(), before);
        assert.equal((await dbInvoice(inv.id)).paidMinor, 0);
        const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
          where: { target: 'billing_payment_register' },
          orderBy: { occurredAt: 'desc' },
        });
        assert.equal(audit.outcome, 'failed');
        assert.equal(audit.errorCode, 'ambiguous_tracking_key');

        const viaRest = await rest(accountant, 'POST', '/v1/payments', args);
        assert.equal(viaRest.status, 422);
        assert.equal(viaRest.body.code, 'ambiguous_tracking_key');
        assert.equal(viaRest.body.nextQuestion, envelope.nextQuestion);

        // The user picks one: the same call with the confirmed reference goes through.
        const confirmed = await register(accountant, { ...args, reference: 'KEY-BBB-222' });
        assert.equal(confirmed.envelope.status, 'success');
        assert.equal(confirmed.envelope.data.payment.reference, 'KEY-BBB-222');
      });

      it('asks to confirm a single low-confidence candidate', async () => {
        const inv = await invoice();
        const { envelope } = await register(accountant, {
          ...paymentArgs(inv.id, 10_000),
          evidence: { raw_extracted: {}, tracking_key_candidates: [{ value: 'BLURRY-KEY-9', source: 'ocr', confidence: 0.55 }] },
        });
        assert.equal(envelope.status, 'needs_more_info');
        assert.equal(
          envelope.nextQuestion,
          'Is "BLURRY-KEY-9" the bank tracking key (clave de rastreo) of this payment? Please confirm it or tell me the correct one.',
        );
        assert.equal(await paymentCount(inv.id), 0);
      });

      it('asks for the key when the evidence has no candidate at all', async () => {
        const inv = await invoice();
        const { envelope } = await register(accountant, {
          ...paymentArgs(inv.id, 10_000),
          evidence: { raw_extracted: { monto: '$100' }, tracking_key_candidates: [] },
        });
        assert.equal(envelope.status, 'needs_more_info');
        assert.match(envelope.nextQuestion!, /What is the bank tracking key \(clave de rastreo\) of this payment\?/);
        assert.equal(await paymentCount(inv.id), 0);
        // The question names what identifies a payment of that method.
        const cash = await register(accountant, {
          ...paymentArgs(inv.id, 10_000),
          method: 'cash',
          evidence: { raw_extracted: {}, tracking_key_candidates: [] },
        });
        assert.match(cash.envelope.nextQuestion!, /What is the receipt number of this payment\?/);
      });

      it('takes two confident readings of the same key as one', async () => {
        const inv = await invoice();
        const { envelope } = await register(accountant, {
          ...paymentArgs(inv.id, 10_000),
          evidence: {
            raw_extracted: {},
            tracking_key_candidates: [
              { value: 'same key 42', source: 'ocr', confidence: 0.85 },
              { value: 'SAMEKEY42', source: 'email', confidence: 0.95 },
            ],
          },
        });
        assert.equal(envelope.status, 'success', JSON.stringify(envelope.errors));
        assert.equal(envelope.data.payment.reference, 'SAMEKEY42');
      });
    });
  });

  describe('reading payments (REST)', () => {
    it('lists the payments of an invoice, pages with a cursor, and shows one with its evidence and refunds', async () => {
      const inv = await invoice({ total: 100_000 });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await register(accountant, paymentArgs(inv.id, 1_000 + i))).envelope.data.payment.id);
      const first = await rest(viewer, 'GET', `/v1/payments?invoice_id=${inv.id}&limit=2`);
      assert.equal(first.status, 200);
      assert.equal(first.body.items.length, 2);
      assert.ok(first.body.next_cursor);
      const second = await rest(viewer, 'GET', `/v1/payments?invoice_id=${inv.id}&limit=2&cursor=${first.body.next_cursor}`);
      assert.equal(second.body.items.length, 1);
      assert.equal(second.body.next_cursor, null);
      assert.deepEqual([...first.body.items, ...second.body.items].map((p: any) => p.id).sort(), [...ids].sort());

      const one = await rest(viewer, 'GET', `/v1/payments/${ids[0]}`);
      assert.equal(one.status, 200);
      assert.equal(one.body.amount_minor, 1_000);
      assert.equal(one.body.evidence.raw_extracted.banco_destino, 'BBVA');
      assert.deepEqual(one.body.refunds, []);

      assert.equal((await rest(viewer, 'GET', '/v1/payments?cursor=garbage')).status, 400);
      assert.equal((await rest(viewer, 'GET', '/v1/payments?limit=1000')).status, 400);
      assert.equal((await rest(viewer, 'GET', `/v1/payments/${randomUUID()}`)).status, 404);
      assert.equal((await rest(viewer, 'GET', '/v1/payments/not-a-uuid')).status, 400);
      assert.equal((await rest(undefined, 'GET', '/v1/payments')).status, 401);
    });
  });

  describe('billing_payment_refund', () => {
    async function paidInvoice(total = 60_000, due = isoDate(20)) {
      const inv = await invoice({ total, due });
      const { envelope } = await register(accountant, paymentArgs(inv.id, total));
      assert.equal(envelope.data.invoice.status, 'paid');
      return { invoiceId: inv.id, paymentId: envelope.data.payment.id as string };
    }

    it('over MCP waits for a person (destructive, approval link): nothing changes, the request is audited', async () => {
      const { invoiceId, paymentId } = await paidInvoice();
      const { status, envelope, isError } = await mcp(admin, 'billing_payment_refund', {
        payment_id: paymentId,
        reason: 'Customer paid twice',
        idempotency_key: idem(),
      });
      assert.equal(status, 200);
      assert.equal(isError, false);
      assert.equal(envelope.safety, 'destructive');
      assert.equal(envelope.status, 'pending_confirmation');
      assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
      assert.equal((await t.prisma.client.payment.findUniqueOrThrow({ where: { id: paymentId } })).refundedMinor, 0);
      assert.equal((await dbInvoice(invoiceId)).status, 'paid');
      assert.equal(await t.prisma.client.mcpApproval.count({ where: { tool: 'billing_payment_refund', status: 'pending' } }), 1);
      const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'billing_payment_refund' },
        orderBy: { occurredAt: 'desc' },
      });
      assert.equal(audit.outcome, 'success');
    });

    it('is not even callable over MCP by an accountant (a tool error: the role lacks billing:admin), nothing changes', async () => {
      const { invoiceId, paymentId } = await paidInvoice();
      const approvals = () => t.prisma.client.mcpApproval.count({ where: { tool: 'billing_payment_refund' } });
      const approvalsBefore = await approvals();
      const answer = await mcp(accountant, 'billing_payment_refund', {
        payment_id: paymentId,
        reason: 'Customer paid twice',
        idempotency_key: idem(),
      });
      assertRefusedByRole(answer, 'billing:admin');
      assert.equal(answer.envelope.safety, 'destructive');
      assert.equal(answer.envelope.approval, undefined);
      assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
      assert.equal(await approvals(), approvalsBefore, 'a refused call asks for no approval');
      assert.equal((await dbInvoice(invoiceId)).paidMinor, 60_000);
    });

    it('is refused over REST for an accountant (403), nothing changes', async () => {
      const { invoiceId, paymentId } = await paidInvoice();
      const response = await rest(accountant, 'POST', `/v1/payments/${paymentId}/refunds`, {
        reason: 'Customer paid twice',
        idempotency_key: idem(),
      });
      assert.equal(response.status, 403);
      // The role refuses (the token has billing:admin): a plain 403, no scope challenge.
      assert.equal(response.headers.get('www-authenticate'), null);
      assert.match(response.body.message, /role does not allow billing:admin/);
      assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
      assert.equal((await dbInvoice(invoiceId)).paidMinor, 60_000);
    });

    it('works over REST for an admin: partial refund reopens the invoice, then the rest, then nothing is left', async () => {
      const { invoiceId, paymentId } = await paidInvoice(60_000);
      const partial = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, {
        amount_minor: 20_000,
        reason: 'Partial return of goods',
        idempotency_key: idem(),
      });
      assert.equal(partial.status, 201, JSON.stringify(partial.body));
      assert.equal(partial.body.refund.amount_minor, 20_000);
      assert.equal(partial.body.refund.created_via, 'api');
      assert.equal(partial.body.payment.refunded_minor, 20_000);
      assert.equal(partial.body.payment.refundable_minor, 40_000);
      assert.deepEqual(
        { status: partial.body.invoice.status, paid: partial.body.invoice.paid_minor, balance: partial.body.invoice.balance_minor },
        { status: 'sent', paid: 40_000, balance: 20_000 },
      );
      const invRow = await dbInvoice(invoiceId);
      assert.equal(invRow.status, 'sent');
      assert.equal(invRow.paidMinor, 40_000);
      assert.equal(invRow.updatedVia, 'api');

      const tooMuch = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, {
        amount_minor: 50_000,
        reason: 'Too much',
        idempotency_key: idem(),
      });
      assert.equal(tooMuch.status, 422);
      assert.equal(tooMuch.body.code, 'refund_exceeds_refundable');
      assert.match(tooMuch.body.message, /still refundable on payment .*: 40000 \(400\.00 MXN\)/);

      const rest2 = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, {
        reason: 'Return of the remaining goods',
        idempotency_key: idem(),
      });
      assert.equal(rest2.status, 201);
      assert.equal(rest2.body.refund.amount_minor, 40_000);
      assert.equal(rest2.body.invoice.paid_minor, 0);
      assert.equal(rest2.body.invoice.balance_minor, 60_000);

      const nothing = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, { reason: 'Once more', idempotency_key: idem() });
      assert.equal(nothing.status, 422);
      assert.equal(nothing.body.code, 'nothing_to_refund');

      const detail = await rest(viewer, 'GET', `/v1/payments/${paymentId}`);
      assert.deepEqual(
        detail.body.refunds.map((r: any) => r.amount_minor),
        [20_000, 40_000],
      );
      assert.equal(detail.body.refundable_minor, 0);
      assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 2);
    });

    it('reopens a paid invoice as overdue when its due date has passed', async () => {
      const { invoiceId, paymentId } = await paidInvoice(30_000, isoDate(-5));
      const response = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, {
        amount_minor: 1,
        reason: 'Bank fee returned',
        idempotency_key: idem(),
      });
      assert.equal(response.status, 201);
      assert.equal(response.body.invoice.status, 'overdue');
      assert.equal((await dbInvoice(invoiceId)).status, 'overdue');
    });

    it('validates the refund (reason length, the payment belongs in the path only, unknown payment)', async () => {
      const { paymentId } = await paidInvoice();
      const short = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, { reason: 'no', idempotency_key: idem() });
      assert.equal(short.status, 400);
      assert.ok(short.body.message.some((m: string) => /`reason` must be 5–500 characters/.test(m)));
      const mismatch = await rest(admin, 'POST', `/v1/payments/${paymentId}/refunds`, {
        payment_id: randomUUID(),
        reason: 'Customer paid twice',
        idempotency_key: idem(),
      });
      assert.equal(mismatch.status, 400);
      assert.ok(mismatch.body.message.includes('`payment_id` is not an accepted field; remove it'));
      const missing = await rest(admin, 'POST', `/v1/payments/${randomUUID()}/refunds`, {
        reason: 'Customer paid twice',
        idempotency_key: idem(),
      });
      assert.equal(missing.status, 404);
      assert.match(missing.body.message, /Payment .* was not found in this workspace/);
      assert.equal(await t.prisma.client.refund.count({ where: { paymentId } }), 0);
    });
  });

  describe('workspace isolation', () => {
    it("neither workspace can see or touch the other's invoices and payments", async () => {
      const demoInvoice = await invoice();
      const otherInvoice = await invoice({ workspace: 'other' });
      const demoPayment = (await register(accountant, paymentArgs(demoInvoice.id, 5_000))).envelope.data.payment.id;
      const otherAnswer = await register(other, paymentArgs(otherInvoice.id, 5_000));
      assert.equal(otherAnswer.envelope.ok, true, JSON.stringify(otherAnswer.envelope.errors));
      const otherPayment = otherAnswer.envelope.data.payment.id;
      assert.equal((await t.prisma.client.payment.findUniqueOrThrow({ where: { id: otherPayment } })).workspaceId, otherId);

      // Registering against the other workspace's invoice: not found, on both sides.
      assert.equal((await register(other, paymentArgs(demoInvoice.id, 1_000))).envelope.errors[0].code, 'not_found');
      assert.equal((await register(accountant, paymentArgs(otherInvoice.id, 1_000))).envelope.errors[0].code, 'not_found');
      assert.equal((await rest(other, 'POST', '/v1/payments', paymentArgs(demoInvoice.id, 1_000))).status, 404);
      // Reading.
      assert.equal((await rest(other, 'GET', `/v1/payments/${demoPayment}`)).status, 404);
      assert.equal((await rest(viewer, 'GET', `/v1/payments/${otherPayment}`)).status, 404);
      const otherList = await rest(other, 'GET', '/v1/payments?limit=100');
      assert.deepEqual(
        otherList.body.items.map((p: any) => p.id),
        [otherPayment],
      );
      const demoList = await rest(viewer, 'GET', `/v1/payments?invoice_id=${otherInvoice.id}`);
      assert.deepEqual(demoList.body.items, []);
      // Refunding.
      assert.equal(
        (await rest(other, 'POST', `/v1/payments/${demoPayment}/refunds`, { reason: 'Not yours', idempotency_key: idem() })).status,
        404,
      );
      assert.equal(
        (await rest(admin, 'POST', `/v1/payments/${otherPayment}/refunds`, { reason: 'Not yours', idempotency_key: idem() })).status,
        404,
      );
      // Naming the other workspace explicitly is refused without revealing it.
      const named = await register(accountant, { ...paymentArgs(otherInvoice.id, 1_000), workspace_id: 'pay-other' });
      assert.equal(named.envelope.ok, false);
      assert.match(named.envelope.errors[0].message, /bound to workspace "demo"/);
      assert.equal(await paymentCount(demoInvoice.id), 1);
      assert.equal(await paymentCount(otherInvoice.id), 1);
      assert.equal((await dbInvoice(otherInvoice.id)).paidMinor, 5_000);
    });
  });
});
