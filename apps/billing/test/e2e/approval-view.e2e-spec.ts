import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { APPROVAL_DECIDE_TOOL, APPROVAL_VIEW_URI } from '@nest-mcp/admin';
import { APPROVAL_VIEW_META, MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, type ApprovalViewMeta } from '@nest-mcp/core/extensions';
import { callStateless, callTool } from '@nest-mcp/core/testing';
import { DEMO_ADMIN_EMAIL } from '../../src/demo/demo-seed.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { addMember, expireApproval, panelRuns, unpaidInvoice } from '../support/panel.js';

/**
 * The approval of a destructive call as an MCP Apps view (packages/nest-mcp/docs/confirmation-and-idempotency.md,
 * "In the chat, as an app view"), without a browser: what a client that declared the extension gets, what
 * one that did not gets, and every refusal of the view's decide tool (the browser test presses Continue).
 */

const APPS = { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } };
const HOST = { name: 'Chat Host', version: '1.0.0' };
/** Asks for the cancel (which needs an admin); the demo admin approves; an accountant may not approve. */
const REQUESTER = { email: 'ops@demo.test', name: 'Olivia Ops' };
const ACCOUNTANT = { email: 'accountant@demo.test', name: 'Ada Accountant' };

describe('the approval view (real app)', () => {
  let t: BillingTestApp;
  let requester: string;
  let approver: string;
  let accountant: string;

  before(async () => {
    t = await startBillingApp();
    await addMember(t, { ...REQUESTER, workspace: 'demo', role: 'admin' });
    await addMember(t, { ...ACCOUNTANT, workspace: 'demo', role: 'accountant' });
    requester = await t.token({ email: REQUESTER.email });
    accountant = await t.token({ email: ACCOUNTANT.email });
    approver = await t.token({ email: DEMO_ADMIN_EMAIL });
  });
  after(() => t.close());

  /** billing_invoice_cancel of a new unpaid invoice, from a host that declared MCP Apps (no elicitation). */
  async function pendingInView(token = requester) {
    const invoice = await unpaidInvoice(t, approver);
    const args = { invoice_id: invoice.id, reason: 'Duplicate of another invoice' };
    const answer = await callTool(t.mcpUrl, 'billing_invoice_cancel', args, { token, capabilities: APPS, clientInfo: HOST });
    assert.equal(answer.status, 200, answer.text);
    const result = answer.body.result as { _meta?: Record<string, unknown>; isError?: boolean };
    return { invoice, args, envelope: answer.envelope, result, meta: result._meta?.[APPROVAL_VIEW_META] as ApprovalViewMeta };
  }

  const decide = (token: string, args: Record<string, unknown>) =>
    callTool(t.mcpUrl, APPROVAL_DECIDE_TOOL, args, { token, capabilities: APPS, clientInfo: HOST });
  const approvalRow = (id: string) => t.prisma.client.mcpApproval.findUniqueOrThrow({ where: { id } });
  const invoiceStatus = async (id: string) => (await t.prisma.client.invoice.findUniqueOrThrow({ where: { id } })).status;

  it('lists the approval view on destructive tools, and the decide tool for views only', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/list', {}, { token: approver, capabilities: APPS });
    const tools = new Map((body.result.tools as Array<{ name: string; _meta?: any }>).map((tool) => [tool.name, tool]));
    assert.equal(tools.get('billing_invoice_cancel')?._meta?.ui?.resourceUri, APPROVAL_VIEW_URI);
    assert.equal(tools.get('billing_payment_refund')?._meta?.ui?.resourceUri, APPROVAL_VIEW_URI);
    assert.deepEqual(tools.get(APPROVAL_DECIDE_TOOL)?._meta?.ui, { visibility: ['app'] });
    assert.equal(tools.get('billing_invoice_get')?._meta, undefined, 'a tool that is not destructive lists no view');
    const read = await callStateless(t.mcpUrl, 'resources/read', { uri: APPROVAL_VIEW_URI }, { token: requester, capabilities: APPS });
    assert.ok(read.body.result, JSON.stringify(read.body));
    const [content] = read.body.result.contents;
    assert.equal(content.mimeType, MCP_APP_MIME_TYPE);
    assert.match(content.text, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline';/);
    assert.doesNotMatch(content.text, /https?:\/\/(?!www\.w3\.org)/, 'the view names no external origin');
  });

  it('answers a client that declared MCP Apps with the pending approval for the view: the record, the link, the secret in _meta', async () => {
    const { invoice, args, envelope, result, meta } = await pendingInView();
    assert.equal(envelope.status, 'pending_confirmation');
    assert.equal(result.isError, undefined);
    const row = await approvalRow(envelope.approval!.id);
    assert.equal(row.status, 'pending');
    assert.equal(row.tool, 'billing_invoice_cancel');
    assert.deepEqual(
      { ...meta, secret: typeof meta.secret },
      {
        id: row.id,
        secret: 'string',
        url: envelope.approval!.url,
        expires_at: envelope.approval!.expires_at,
        tool: { name: 'billing_invoice_cancel', title: meta.tool.title, summary: meta.tool.summary },
        arguments: args,
      },
    );
    assert.ok(meta.secret.length >= 40);
    assert.match(meta.tool.summary, /Side effects:/);
    assert.match(envelope.nextQuestion!, new RegExp(`approval shown with this result, or open ${envelope.approval!.url}`));
    // The model's part (the text block) carries no secret.
    assert.doesNotMatch(JSON.stringify((result as { content: unknown }).content), new RegExp(meta.secret));
    assert.equal(await invoiceStatus(invoice.id), 'sent');
  });

  it('answers a client without the extension as before: the link, no view data; and one with elicitation gets the question', async () => {
    const invoice = await unpaidInvoice(t, approver);
    const args = { invoice_id: invoice.id, reason: 'Duplicate' };
    const plain = await callTool(t.mcpUrl, 'billing_invoice_cancel', args, { token: requester, clientInfo: HOST });
    assert.equal(plain.envelope.status, 'pending_confirmation');
    assert.equal(plain.body.result._meta?.[APPROVAL_VIEW_META], undefined);
    const both = await callTool(t.mcpUrl, 'billing_invoice_cancel', args, {
      token: requester,
      capabilities: { elicitation: { form: {} }, ...APPS },
      clientInfo: HOST,
    });
    assert.equal(both.body.result.resultType, 'input_required', both.text);
  });

  it('keeps a `link` tool on the approval page: no view data for a client that declared MCP Apps', async () => {
    const answer = await callTool(
      t.mcpUrl,
      'billing_payment_refund',
      { payment_id: '00000000-0000-4000-8000-000000000000', reason: 'Charged twice by mistake', idempotency_key: 'refund-view-1' },
      { token: requester, capabilities: APPS, clientInfo: HOST },
    );
    assert.equal(answer.envelope.status, 'pending_confirmation', answer.text);
    assert.equal(answer.body.result._meta?.[APPROVAL_VIEW_META], undefined, answer.text);
  });

  it('refuses a decision without the approval’s secret, before looking the approval up', async () => {
    const { envelope, meta } = await pendingInView();
    const other = await pendingInView();
    for (const view_secret of ['not-the-secret', other.meta.secret]) {
      const answer = await decide(approver, { approval_id: meta.id, decision: 'continue', view_secret });
      assert.equal(answer.body.result.isError, true, answer.text);
      assert.equal(answer.envelope.errors[0].code, 'approval_view_only');
      assert.equal(answer.envelope.errors[0].retryable, false);
    }
    const missing = await decide(approver, { approval_id: meta.id, decision: 'continue' });
    assert.equal(missing.envelope.errors[0].code, 'invalid_argument', missing.text);
    assert.equal((await approvalRow(envelope.approval!.id)).status, 'pending');
  });

  it('refuses a person who may not approve in the workspace, with the link for one who may', async () => {
    const { invoice, meta } = await pendingInView();
    // The secret reached someone else (a shared screen, a forwarded result): they are still no approver.
    const answer = await decide(accountant, { approval_id: meta.id, decision: 'continue', view_secret: meta.secret });
    assert.equal(answer.envelope.errors[0].code, 'approver_required', answer.text);
    assert.match(answer.envelope.errors[0].message, new RegExp(`open ${meta.url} and choose Continue or Cancel`));
    assert.equal((await approvalRow(meta.id)).status, 'pending');
    assert.equal(await invoiceStatus(invoice.id), 'sent');
  });

  it('decides once: Continue runs the call as the approver, a second decision is refused, the agent then gets the answer', async () => {
    const { invoice, args, meta } = await pendingInView();
    const first = await decide(approver, { approval_id: meta.id, decision: 'continue', view_secret: meta.secret });
    assert.equal(first.body.result.isError, undefined, first.text);
    assert.equal(first.envelope.data.status, 'executed');
    assert.equal(first.envelope.data.approval_id, meta.id);
    assert.equal(await invoiceStatus(invoice.id), 'cancelled');
    const again = await decide(approver, { approval_id: meta.id, decision: 'cancel', view_secret: meta.secret });
    assert.equal(again.envelope.errors[0].code, 'approval_already_decided', again.text);
    assert.equal((await approvalRow(meta.id)).status, 'executed');
    assert.equal((await panelRuns(t, invoice.id)).length, 1);
    const decisions = await t.prisma.client.mcpAuditEvent.findMany({
      where: { method: 'approval/continue', target: 'billing_invoice_cancel' },
    });
    assert.equal(decisions.filter((row) => (row.arguments as { approval_id?: string }).approval_id === meta.id).length, 1);
    // The agent's identical call gets the stored answer (the link path's rule).
    const replay = await callTool(t.mcpUrl, 'billing_invoice_cancel', args, { token: requester, capabilities: APPS, clientInfo: HOST });
    assert.equal(replay.envelope.status, 'success', replay.text);
    assert.equal(replay.body.result._meta?.[APPROVAL_VIEW_META], undefined);
  });

  it('Cancel ends the approval without running anything', async () => {
    const { invoice, meta } = await pendingInView();
    const answer = await decide(approver, { approval_id: meta.id, decision: 'cancel', view_secret: meta.secret });
    assert.equal(answer.envelope.data.status, 'denied', answer.text);
    assert.equal((await approvalRow(meta.id)).status, 'denied');
    assert.equal(await invoiceStatus(invoice.id), 'sent');
  });

  it('refuses an expired approval', async () => {
    const { invoice, meta } = await pendingInView();
    await expireApproval(t, meta.id);
    const answer = await decide(approver, { approval_id: meta.id, decision: 'continue', view_secret: meta.secret });
    assert.equal(answer.envelope.errors[0].code, 'approval_expired', answer.text);
    assert.equal(await invoiceStatus(invoice.id), 'sent');
  });
});
