/**
 * The app view of billing_customer_summary (ui://billing/customer-balance) in a real browser: a
 * host page built on the MCP Apps extension's own host side (AppBridge, in
 * apps/billing/test/support/apps-host.ts) reads the view, calls the tool with a read-only
 * token on the seeded demo data, and embeds the view in a sandboxed frame; the view draws the
 * customer's balances and invoices from the result, calls the tool again through the host, and
 * tears down when asked. A screenshot goes to test-results/screenshots/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { CHROMIUM, CHROMIUM_ARGS, startAppsHost, type AppsHost, type RenderedView } from '../support/apps-host.js';

const SCREENSHOTS = resolve(process.cwd(), 'test-results', 'screenshots');
const TOOL = 'billing_customer_summary';

function skipReason(): string | false {
  if (!existsSync(CHROMIUM) && !process.env.CI) return `no browser at ${CHROMIUM} (CI installs it: .ci/run)`;
  return false;
}

/** Minor units as the view writes them (en, the currency's own decimals). */
function money(minor: number, currency: string): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency });
  return format.format(minor / 10 ** format.resolvedOptions().maximumFractionDigits!);
}

describe('customer balance view in Chromium, embedded as an MCP Apps host does', { skip: skipReason() }, () => {
  let t: BillingTestApp;
  let host: AppsHost;
  let browser: Browser;
  let page: Page;
  let view: RenderedView;
  let customer: { id: string; name: string; email: string };
  const problems: string[] = [];

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startBillingApp();
    await seedDemo(t.prisma, { billing: true });
    // A customer with an overdue invoice: the view has both balances to show.
    const overdue = await t.prisma.client.invoice.findFirstOrThrow({ where: { status: 'overdue' }, include: { customer: true } });
    customer = { id: overdue.customer.id, name: overdue.customer.name, email: overdue.customer.email };
    host = await startAppsHost({ mcpUrl: t.mcpUrl, token: await t.token({ email: 'viewer@demo.test', scopes: ['billing:read'] }) });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    view = await host.render(page, TOOL, { customer_id: customer.id });
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await t?.close();
  });

  it('is served with its CSP and runs in an opaque, sandboxed origin', async () => {
    assert.equal(view.uri, 'ui://billing/customer-balance');
    assert.equal(view.content.mimeType, 'text/html;profile=mcp-app');
    assert.deepEqual(view.content._meta?.ui, { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
    const csp = await view.frame.evaluate('document.querySelector(\'meta[http-equiv="Content-Security-Policy"]\').content');
    assert.match(String(csp), /^default-src 'none'; /);
    assert.equal(await view.frame.evaluate('window.origin'), 'null');
  });

  it("draws the customer's balances and invoices from the tool's result, with the database's figures", async () => {
    const data = (view.toolResult.structuredContent as { data: any }).data;
    assert.equal(data.customer.id, customer.id);
    assert.equal(await view.frame.locator('#customer-name').textContent(), customer.name);
    assert.equal(await view.frame.locator('#customer-email').textContent(), customer.email);

    const invoices = await t.prisma.client.invoice.findMany({ where: { customerId: customer.id } });
    const rows = view.frame.locator('#invoices tr');
    assert.equal(await rows.count(), data.recent_invoices.length);
    assert.ok(data.recent_invoices.length > 0);
    for (const [index, listed] of data.recent_invoices.entries()) {
      const stored = invoices.find((invoice) => invoice.number === listed.number)!;
      const cells = await rows.nth(index).locator('td').allTextContents();
      assert.deepEqual(cells, [
        stored.number,
        stored.status,
        listed.due_date,
        money(stored.totalMinor, stored.currency),
        money(stored.totalMinor - stored.paidMinor, stored.currency),
      ]);
    }
    // Overdue per currency, from the database.
    for (const balance of data.balances) {
      const overdue = invoices.filter((invoice) => invoice.status === 'overdue' && invoice.currency === balance.currency);
      const owed = overdue.reduce((sum, invoice) => sum + invoice.totalMinor - invoice.paidMinor, 0);
      const box = view.frame.locator(`.balance[data-currency="${balance.currency}"] .overdue`);
      assert.equal(await box.textContent(), `${money(owed, balance.currency)} overdue (${overdue.length})`);
    }
    assert.ok(data.balances.some((balance: { overdue_count: number }) => balance.overdue_count > 0));
    await page.screenshot({ path: join(SCREENSHOTS, 'customer-balance-view.png'), fullPage: true });
  });

  it('tells the host its size', async () => {
    const sizes = await page.evaluate<Array<{ height: number }>>('window.hostState.sizes');
    assert.ok(sizes.length > 0 && sizes.every((size) => size.height > 0), JSON.stringify(sizes));
  });

  it('calls the tool again through the host (tools/call forwarded with the caller’s token)', async () => {
    await view.frame.locator('#refresh').click();
    // The view shows "Refreshing…" until the host hands it the new result. (Polled from here: the
    // view's CSP forbids the eval Playwright's waitForFunction needs.)
    for (let waited = 0; (await view.frame.locator('#state').textContent()) !== '' || host.viewCalls.length === 0; waited += 50) {
      assert.ok(waited < 10_000, 'the view never showed the refreshed summary');
      await sleep(50);
    }
    assert.equal(host.viewCalls.length, 1);
    const [call] = host.viewCalls;
    assert.equal(call.name, TOOL);
    assert.deepEqual(call.arguments, { customer_id: customer.id });
    assert.equal((call.result.structuredContent as { ok: boolean }).ok, true);
  });

  it('tears down when the host asks, with no error on the way', async () => {
    await host.teardown(page);
    assert.deepEqual(await page.evaluate('window.hostState.teardown'), {});
    assert.deepEqual(problems, []);
  });
});
