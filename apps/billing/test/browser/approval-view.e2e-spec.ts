/**
 * The approval of a destructive call as an MCP Apps view (@nest-mcp/admin's ui://nest-mcp/approval) in a
 * real browser: a host page built on the extension's own host side (AppBridge, in
 * test/support/apps-host.ts) calls billing_invoice_cancel as a client that declared
 * the extension, renders the view the tool links with the pending result, and the person presses
 * Continue: the view decides through the host (mcp_approval_decide), the cancel runs once, audited, and
 * the agent's identical call then gets its answer. The same tool from a client without the extension
 * gets the link or the question, no view. A screenshot goes to test-results/screenshots/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { APPROVAL_DECIDE_TOOL, APPROVAL_VIEW_URI } from '@nest-mcp/admin';
import { APPROVAL_VIEW_META } from '@nest-mcp/core/extensions';
import { callTool } from '@nest-mcp/core/testing';
import { DEMO_ADMIN_EMAIL } from '../../src/demo/demo-seed.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { panelRuns, unpaidInvoice } from '../support/panel.js';
import { APPS_HOST_CAPABILITIES, CHROMIUM, CHROMIUM_ARGS, startAppsHost, type AppsHost, type RenderedView } from '../support/apps-host.js';

const SCREENSHOTS = resolve(process.cwd(), 'test-results', 'screenshots');
const TOOL = 'billing_invoice_cancel';

function skipReason(): string | false {
  if (!existsSync(CHROMIUM) && !process.env.CI) return `no browser at ${CHROMIUM} (CI installs it: .ci/run)`;
  return false;
}

describe('approval view in Chromium: host → pending result → the view → Continue', { skip: skipReason() }, () => {
  let t: BillingTestApp;
  let host: AppsHost;
  let browser: Browser;
  let page: Page;
  let view: RenderedView;
  let token: string;
  let invoice: { id: string; number: string };
  const args = () => ({ invoice_id: invoice.id, reason: 'Duplicate of another invoice' });
  const problems: string[] = [];

  const text = (selector: string) => view.frame.locator(selector).textContent();
  const invoiceRow = () => t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoice.id } });

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startBillingApp();
    // The person in the chat is the demo workspace's admin: they may approve there.
    token = await t.token({ email: DEMO_ADMIN_EMAIL });
    invoice = await unpaidInvoice(t, token);
    host = await startAppsHost({ mcpUrl: t.mcpUrl, token });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    view = await host.render(page, TOOL, args());
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await t?.close();
  });

  it('renders the approval view the destructive tool links, self-contained, in a sandboxed frame', async () => {
    assert.equal(view.uri, APPROVAL_VIEW_URI);
    assert.deepEqual(view.content._meta?.ui, { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
    const csp = await view.frame.evaluate('document.querySelector(\'meta[http-equiv="Content-Security-Policy"]\').content');
    assert.match(String(csp), /^default-src 'none'; script-src 'unsafe-inline'; .*connect-src 'none'/);
    assert.equal(await view.frame.evaluate('window.origin'), 'null');
    const envelope = view.toolResult.structuredContent as { status: string; approval: { id: string } };
    assert.equal(envelope.status, 'pending_confirmation');
    assert.equal((await t.prisma.client.mcpApproval.findUniqueOrThrow({ where: { id: envelope.approval.id } })).status, 'pending');
  });

  it('shows the person what Continue does and the arguments, with Continue and Cancel', async () => {
    const meta = (view.toolResult._meta as Record<string, any>)[APPROVAL_VIEW_META];
    // The view shows what it was given, and it is nothing to wait for: the result was delivered before render() returned.
    assert.equal(await text('#title'), `Confirm "${meta.tool.title}"?`);
    assert.equal(await text('#summary'), meta.tool.summary);
    assert.match(meta.tool.summary, /Side effects:/);
    const cells = await view.frame.locator('#arguments tr').allTextContents();
    assert.deepEqual(cells, [`invoice_id${invoice.id}`, 'reasonDuplicate of another invoice']);
    assert.equal(await view.frame.locator('#continue').isVisible(), true);
    assert.equal(await view.frame.locator('#cancel').isVisible(), true);
    assert.equal((await invoiceRow()).status, 'sent');
    await page.screenshot({ path: join(SCREENSHOTS, 'approval-view.png'), fullPage: true });
  });

  it('runs the call once when the person presses Continue, audited as on the approval page', async () => {
    await view.frame.locator('#continue').click();
    // Polled from here: the view's CSP forbids the eval Playwright's waitForFunction needs.
    for (let waited = 0; !/^Done/.test((await text('#outcome')) ?? ''); waited += 50) {
      assert.ok(waited < 15_000, `the view never showed the outcome: ${await text('#outcome')}`);
      await sleep(50);
    }
    assert.equal(host.viewCalls.length, 1);
    const [call] = host.viewCalls;
    assert.equal(call.name, APPROVAL_DECIDE_TOOL);
    assert.deepEqual(Object.keys(call.arguments).sort(), ['approval_id', 'decision', 'view_secret']);
    assert.equal(call.arguments.decision, 'continue');
    const [block] = call.result.content as Array<{ text: string }>;
    assert.equal(JSON.parse(block.text).data.status, 'executed');

    const after = await invoiceRow();
    assert.equal(after.status, 'cancelled');
    const runs = await panelRuns(t, invoice.id);
    assert.equal(runs.length, 1);
    assert.equal(runs[0].outcome, 'success');
    const approvalId = call.arguments.approval_id as string;
    const decisions = await t.prisma.client.mcpAuditEvent.findMany({ where: { method: { startsWith: 'approval/' }, target: TOOL } });
    const ofThis = decisions.filter((row) => (row.arguments as { approval_id?: string }).approval_id === approvalId);
    assert.deepEqual(
      ofThis.map((row) => [row.method, row.channel, row.outcome]),
      [['approval/continue', 'panel', 'success']],
    );
    assert.equal(await view.frame.locator('#continue').isVisible(), false);
    await page.screenshot({ path: join(SCREENSHOTS, 'approval-view-done.png'), fullPage: true });
  });

  it("gives the agent's identical call the stored answer, without running it again", async () => {
    const { updatedAt } = await invoiceRow();
    const replay = await callTool(t.mcpUrl, TOOL, args(), { token, capabilities: APPS_HOST_CAPABILITIES });
    assert.equal(replay.envelope.status, 'success', replay.text);
    assert.deepEqual((await invoiceRow()).updatedAt, updatedAt, 'not written again');
    assert.equal((await panelRuns(t, invoice.id)).length, 1);
    assert.deepEqual(problems, []);
  });

  it('answers a client without the extension with the link (or the question with elicitation), no view data', async () => {
    const other = await unpaidInvoice(t, token);
    const plain = await callTool(t.mcpUrl, TOOL, { invoice_id: other.id, reason: 'Duplicate' }, { token });
    assert.equal(plain.envelope.status, 'pending_confirmation', plain.text);
    assert.match(plain.envelope.approval!.url, /\/admin\/approvals\//);
    assert.equal(plain.body.result._meta?.[APPROVAL_VIEW_META], undefined);
    const asking = await callTool(
      t.mcpUrl,
      TOOL,
      { invoice_id: other.id, reason: 'Duplicate' },
      { token, capabilities: { elicitation: { form: {} } } },
    );
    assert.equal(asking.body.result.resultType, 'input_required', asking.text);
  });
});
