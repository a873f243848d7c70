import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { restCall } from '../support/rest-http.js';
import {
  PanelVisitor,
  addMember,
  agentCall,
  csrfOf,
  expireApproval,
  panelRuns,
  setPanelPassword,
  unpaidInvoice,
} from '../support/panel.js';

/**
 * Admin pages: approving an agent's destructive call over plain HTTP (the browser test does the
 * same through Chromium). The agent is a 2026-era client without elicitation, so
 * billing_invoice_cancel answers `pending_confirmation` with an approval link.
 */

const PASSWORD = 'approver password 1';
const HOSTILE = '<script>alert("pwned")</script><img src=x onerror=alert(1)>';

describe('admin pages: deciding approvals', () => {
  let t: BillingTestApp;
  let token: string;
  let admin: PanelVisitor;
  let adminId: string;

  /** An unpaid invoice and the approval link the agent got for cancelling it. */
  const pendingCancel = async (reason = 'Issued to the wrong customer') => {
    const invoice = await unpaidInvoice(t, token);
    const args = { invoice_id: invoice.id, reason };
    const { envelope, result } = await agentCall(t, token, 'billing_invoice_cancel', args);
    assert.equal(envelope.status, 'pending_confirmation', JSON.stringify(envelope));
    assert.notEqual(result.isError, true);
    const url = new URL(envelope.approval!.url);
    assert.equal(url.origin, t.baseUrl);
    assert.match(url.pathname, /^\/admin\/approvals\/[0-9a-f-]{36}$/);
    return { invoice, args, path: url.pathname, id: envelope.approval!.id };
  };

  const invoiceRow = (id: string) => t.prisma.client.invoice.findUniqueOrThrow({ where: { id } });
  const decisionEvents = (approvalId: string) =>
    t.prisma.client.mcpAuditEvent.findMany({
      where: { method: { startsWith: 'approval/' }, arguments: { path: ['approval_id'], equals: approvalId } },
    });
  const approvalRow = (id: string) => t.prisma.client.mcpApproval.findUniqueOrThrow({ where: { id } });

  const decide = async (visitor: PanelVisitor, path: string, decision: string) => {
    const page = await visitor.get(path);
    assert.equal(page.status, 200, page.text);
    return { page, answer: await visitor.post(`${path}/decision`, { _csrf: csrfOf(page.text), decision }) };
  };

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
    await setPanelPassword(t, 'admin@demo.test', PASSWORD);
    await setPanelPassword(t, 'accountant@demo.test', PASSWORD);
    await addMember(t, { email: 'boss@other.test', name: 'Other Boss', workspace: 'other', role: 'admin', password: PASSWORD });
    admin = new PanelVisitor(t.baseUrl);
    assert.equal((await admin.signIn('admin@demo.test', PASSWORD)).status, 303);
    adminId = (await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'admin@demo.test' } })).id;
  });
  after(() => t?.close());

  it("Continue: shows the call, runs it once as the approver, audits it, and the agent's identical call gets the result", async () => {
    const { invoice, args, path, id } = await pendingCancel();
    assert.equal((await invoiceRow(invoice.id)).status, 'sent', 'nothing ran before the decision');

    const list = await admin.get('/admin/approvals');
    assert.equal(list.status, 200);
    assert.match(list.text, new RegExp(`href="${path}"`));
    assert.match(list.text, /Cancel an invoice/);

    const { page, answer } = await decide(admin, path, 'continue');
    for (const expected of [
      'Invoice Assistant',
      '3.1.0',
      'Cancel an invoice',
      'billing_invoice_cancel',
      'Demo Company',
      'Demo Admin',
      'admin@demo.test',
      invoice.id,
      'Issued to the wrong customer',
      'Side effects: irreversible',
    ]) {
      assert.ok(page.text.includes(expected), `detail page shows ${expected}`);
    }
    assert.match(page.text, /<th scope="row">invoice_id<\/th>/);
    assert.match(page.text, /value="continue">Continue<\/button>/);
    assert.match(page.text, /value="cancel">Cancel<\/button>/);

    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.text, /Done: Cancel an invoice ran/);
    assert.match(answer.text, /cancelled/);
    const row = await invoiceRow(invoice.id);
    assert.equal(row.status, 'cancelled');
    assert.equal(row.cancelReason, 'Issued to the wrong customer');
    assert.equal(row.updatedVia, 'panel');
    const runs = await panelRuns(t, invoice.id);
    assert.equal(runs.length, 1, 'the tool ran exactly once');
    assert.equal(runs[0].userId, adminId, 'as the approver');
    assert.equal(runs[0].outcome, 'success');
    const events = await decisionEvents(id);
    assert.deepEqual(
      events.map((e) => [e.method, e.userId, e.outcome, e.channel]),
      [['approval/continue', adminId, 'success', 'panel']],
    );
    const approval = await approvalRow(id);
    // mcp_approvals (@nest-mcp/admin) has no updated_via column: the decision's channel is its audit row's (above).
    assert.deepEqual([approval.status, approval.decidedById], ['executed', adminId]);

    const again = await agentCall(t, token, 'billing_invoice_cancel', args);
    assert.equal(again.envelope.ok, true, JSON.stringify(again.envelope));
    assert.equal(again.envelope.data.status, 'cancelled');
    assert.equal(again.envelope.data.id, invoice.id);
    assert.equal((await panelRuns(t, invoice.id)).length, 1, 'the re-call did not run it again');

    // The decided approval left the pending list; its page shows the outcome without buttons.
    assert.doesNotMatch((await admin.get('/admin/approvals')).text, new RegExp(path));
    const view = await admin.get(path);
    assert.equal(view.status, 200);
    assert.doesNotMatch(view.text, /name="decision"/);
    assert.match(view.text, /approved, ran/);
  });

  it('a second submit of the same form (double click) gets 409 and nothing runs again; two at once run once', async () => {
    const { invoice, path, id } = await pendingCancel('Duplicate invoice');
    const page = await admin.get(path);
    const form = { _csrf: csrfOf(page.text), decision: 'continue' };
    const first = await admin.post(`${path}/decision`, form);
    const second = await admin.post(`${path}/decision`, form);
    assert.equal(first.status, 200);
    assert.equal(second.status, 409);
    assert.match(second.text, /Already decided: nothing was run again/);
    assert.match(second.text, /Demo Admin decided this/);
    assert.equal((await panelRuns(t, invoice.id)).length, 1);
    assert.equal((await decisionEvents(id)).length, 1);
    const cancelledAt = (await invoiceRow(invoice.id)).cancelledAt;
    // A Cancel after the Continue changes nothing either.
    assert.equal((await admin.post(`${path}/decision`, { ...form, decision: 'cancel' })).status, 409);
    assert.deepEqual((await invoiceRow(invoice.id)).cancelledAt, cancelledAt);

    const race = await pendingCancel('Raced');
    const racePage = await admin.get(race.path);
    const raceForm = { _csrf: csrfOf(racePage.text), decision: 'continue' };
    const answers = await Promise.all([
      admin.post(`${race.path}/decision`, raceForm),
      admin.post(`${race.path}/decision`, raceForm),
      admin.post(`${race.path}/decision`, raceForm),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409]);
    assert.equal((await panelRuns(t, race.invoice.id)).length, 1);
  });

  it('Cancel: nothing runs, it is audited, and the agent is told a person refused', async () => {
    const { invoice, args, path, id } = await pendingCancel('Please cancel');
    const { answer } = await decide(admin, path, 'cancel');
    assert.equal(answer.status, 200);
    assert.match(answer.text, /Cancelled: Cancel an invoice did not run/);
    assert.equal((await invoiceRow(invoice.id)).status, 'sent');
    assert.equal((await panelRuns(t, invoice.id)).length, 0);
    assert.deepEqual(
      (await decisionEvents(id)).map((e) => [e.method, e.userId]),
      [['approval/cancel', adminId]],
    );
    assert.equal((await approvalRow(id)).status, 'denied');
    const again = await agentCall(t, token, 'billing_invoice_cancel', args);
    assert.equal(again.result.isError, true);
    assert.equal(again.envelope.errors[0].code, 'approval_denied');
    assert.equal((await admin.post(`${path}/decision`, { _csrf: csrfOf((await admin.get(path)).text), decision: 'continue' })).status, 409);
    assert.equal((await invoiceRow(invoice.id)).status, 'sent');
  });

  it('an expired link gets a 410 page on GET and on POST, and nothing runs', async () => {
    const { invoice, path, id } = await pendingCancel('Too late');
    const page = await admin.get(path);
    const csrf = csrfOf(page.text);
    await expireApproval(t, id);
    const view = await admin.get(path);
    assert.equal(view.status, 410);
    assert.match(view.text, /This approval link has expired/);
    assert.doesNotMatch(view.text, /name="decision"/);
    const post = await admin.post(`${path}/decision`, { _csrf: csrf, decision: 'continue' });
    assert.equal(post.status, 410);
    assert.match(post.text, /nothing was done/);
    assert.equal((await invoiceRow(invoice.id)).status, 'sent');
    assert.equal((await panelRuns(t, invoice.id)).length, 0);
    assert.doesNotMatch((await admin.get('/admin/approvals')).text, new RegExp(path));
  });

  it('a POST without the CSRF token is refused (403) and the approval stays pending', async () => {
    const { invoice, path, id } = await pendingCancel('No token');
    for (const form of <Array<Record<string, string>>>[{ decision: 'continue' }, { decision: 'continue', _csrf: 'guess' }]) {
      const answer = await admin.post(`${path}/decision`, form);
      assert.equal(answer.status, 403);
      assert.match(answer.text, /Request refused/);
    }
    assert.equal((await approvalRow(id)).status, 'pending');
    assert.equal((await invoiceRow(invoice.id)).status, 'sent');
  });

  it("a member who is not an approver, and another workspace's admin, get the not-found page (404) and cannot decide", async () => {
    const { invoice, path, id } = await pendingCancel('Not yours');
    const adminCsrf = csrfOf((await admin.get(path)).text);
    for (const email of ['accountant@demo.test', 'boss@other.test']) {
      const visitor = new PanelVisitor(t.baseUrl);
      assert.equal((await visitor.signIn(email, PASSWORD)).status, 303);
      const view = await visitor.get(path);
      assert.equal(view.status, 404, email);
      assert.match(view.text, /Approval not found/);
      assert.doesNotMatch(view.text, /Not yours|Cancel an invoice|Demo Company/, 'nothing about the approval leaks');
      const csrf = csrfOf(view.text); // the sign-out form's token: a valid session token
      assert.notEqual(csrf, adminCsrf);
      const post = await visitor.post(`${path}/decision`, { _csrf: csrf, decision: 'continue' });
      assert.equal(post.status, 404, email);
      assert.doesNotMatch((await visitor.get('/admin/approvals')).text, new RegExp(path));
    }
    assert.equal((await approvalRow(id)).status, 'pending');
    assert.equal((await invoiceRow(invoice.id)).status, 'sent');
    assert.equal((await panelRuns(t, invoice.id)).length, 0);
  });

  it('renders hostile argument values inert (escaped), and the page allows no script', async () => {
    const { path } = await pendingCancel(HOSTILE);
    const page = await admin.get(path);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('<script>alert'), 'no live script tag');
    assert.ok(!page.text.includes('<img src=x'), 'no live img tag');
    assert.ok(page.text.includes('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;'));
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  it('answers unknown and malformed ids and an unknown decision clearly (404, 404, 400)', async () => {
    const page = await admin.get('/admin/approvals');
    const csrf = csrfOf(page.text);
    assert.equal((await admin.get('/admin/approvals/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await admin.get('/admin/approvals/not-a-uuid')).status, 404);
    assert.equal((await admin.post('/admin/approvals/not-a-uuid/decision', { _csrf: csrf, decision: 'continue' })).status, 404);
    const { path, id } = await pendingCancel('Odd decision');
    const odd = await admin.post(`${path}/decision`, { _csrf: csrf, decision: 'approve-all' });
    assert.equal(odd.status, 400);
    assert.match(odd.text, /Choose Continue or Cancel/);
    const nested = await admin.post(`${path}/decision`, { _csrf: csrf, 'decision[x]': 'continue' });
    assert.equal(nested.status, 400);
    assert.equal((await approvalRow(id)).status, 'pending');
  });

  it('a failing tool (the invoice was paid meanwhile) shows its error once and records failed', async () => {
    const { invoice, path, id } = await pendingCancel('Will fail');
    // Someone cancelled it over REST in the meantime: the approved run must report, not crash.
    const rest = await fetch(`${t.baseUrl}/v1/invoices/${invoice.id}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ reason: 'Done by hand' }),
    });
    assert.equal(rest.status, 200);
    const { answer } = await decide(admin, path, 'continue');
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.text, /Cancel an invoice ran and failed/);
    assert.equal((await approvalRow(id)).status, 'failed');
    assert.equal((await invoiceRow(invoice.id)).cancelReason, 'Done by hand');
    assert.deepEqual(
      (await decisionEvents(id)).map((e) => [e.method, e.outcome]),
      [['approval/continue', 'failed']],
    );
  });

  it("a refund approval shows the payment it refers to (amount, customer, invoice) read in the approval's workspace", async () => {
    const invoice = await unpaidInvoice(t, token, { name: 'Northwind Traders', email: `nw-${Date.now()}@northwind.test` });
    const trackingKey = `TRK${Date.now()}`;
    const paid = await restCall(t, token, 'POST', '/v1/payments', {
      invoice_id: invoice.id,
      amount_minor: 120_000,
      method: 'transfer',
      evidence: {
        raw_extracted: { monto: '$1,200.00' },
        tracking_key_candidates: [{ value: trackingKey, source: 'ocr', confidence: 0.97 }],
      },
      idempotency_key: `pay-${trackingKey}`,
    });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    const paymentId = (paid.body.payment?.id ?? paid.body.id) as string;
    const { envelope } = await agentCall(t, token, 'billing_payment_refund', {
      payment_id: paymentId,
      reason: 'Duplicate transfer',
      idempotency_key: `refund-${trackingKey}`,
    });
    assert.equal(envelope.status, 'pending_confirmation', JSON.stringify(envelope));
    const page = await admin.get(new URL(envelope.approval!.url).pathname);
    assert.equal(page.status, 200, page.text);
    assert.match(
      page.text,
      new RegExp(`<div class="reference">Payment of 1,200.00 MXN · Northwind Traders · invoice ${invoice.number}</div>`),
    );
  });
});
