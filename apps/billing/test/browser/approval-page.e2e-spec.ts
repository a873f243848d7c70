/**
 * The approval page in a real browser (Debian's Chromium driven by playwright-core): an agent on
 * the official MCP SDK 1.x asks to cancel an invoice, gets an approval link, a person opens it,
 * signs in, reads what would run and chooses Continue or Cancel. Screenshots of every page go to
 * test-results/screenshots/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { type Envelope } from '@nest-mcp/core/testing';
import { addMember, expireApproval, panelRuns, setPanelPassword, unpaidInvoice } from '../support/panel.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve(process.cwd(), 'test-results', 'screenshots');
const APPROVER = { email: 'admin@demo.test', name: 'Demo Admin', password: 'approver password 1' };
const REQUESTER = { email: 'ops@demo.test', name: 'Olivia Ops' };
const OUTSIDER = { email: 'boss@other.test', password: 'other password 1' };
const HOSTILE = '<script>alert("pwned")</script><img src=x onerror=alert(1)>';

describe(
  'approval page in Chromium: agent → link → sign in → Continue / Cancel',
  { skip: existsSync(CHROMIUM) || process.env.CI ? false : `no browser at ${CHROMIUM} (CI installs it: .ci/run)` },
  () => {
    let t: BillingTestApp;
    let browser: Browser;
    let agent: Client;
    let requesterToken: string;
    let approverId: string;
    /** A page on another site (localhost vs 127.0.0.1): a chat app that shows the link, or an attacker. */
    let elsewhere: Server;
    let elsewhereUrl: string;
    let elsewhereBody = '';
    const problems: string[] = [];

    const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

    /** A browser context that records console errors (CSP violations among them) and dialogs. */
    const newContext = async (): Promise<BrowserContext> => {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      context.on('page', watch);
      return context;
    };
    const watch = (page: Page) => {
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('dialog', (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    };

    const call = async (args: Record<string, unknown>): Promise<{ envelope: Envelope; isError: boolean }> => {
      const result = (await agent.callTool({ name: 'billing_invoice_cancel', arguments: args })) as {
        content: Array<{ type: string; text: string }>;
        isError?: boolean;
      };
      return { envelope: JSON.parse(result.content[0].text) as Envelope, isError: result.isError === true };
    };

    /** An unpaid invoice and the approval link the agent got for cancelling it. */
    const pendingCancel = async (reason: string, customer?: { name: string; email: string }) => {
      const invoice = await unpaidInvoice(t, requesterToken, customer);
      const args = { invoice_id: invoice.id, reason };
      const { envelope, isError } = await call(args);
      assert.equal(envelope.status, 'pending_confirmation', JSON.stringify(envelope));
      assert.equal(isError, false);
      assert.ok(envelope.approval?.url);
      return { invoice, args, url: envelope.approval.url, id: envelope.approval.id };
    };

    const invoiceStatus = async (id: string) => (await t.prisma.client.invoice.findUniqueOrThrow({ where: { id } })).status;
    const approvalStatus = async (id: string) => (await t.prisma.client.mcpApproval.findUniqueOrThrow({ where: { id } })).status;

    const signIn = async (page: Page, email: string, password: string) => {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState('load');
    };

    /** A signed-in approver's browser context. */
    let approver: BrowserContext;

    before(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      t = await startBillingApp();
      await setPanelPassword(t, APPROVER.email, APPROVER.password);
      await addMember(t, { ...REQUESTER, workspace: 'demo', role: 'admin' });
      await addMember(t, { email: OUTSIDER.email, name: 'Other Boss', workspace: 'other', role: 'admin', password: OUTSIDER.password });
      approverId = (await t.prisma.client.user.findUniqueOrThrow({ where: { email: APPROVER.email } })).id;
      requesterToken = await t.token({ email: REQUESTER.email });

      // The agent: the official SDK 1.x client (2025 era, no elicitation), with the requester's token.
      agent = new Client({ name: 'Invoice Assistant', version: '3.1.0' });
      await agent.connect(
        new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${requesterToken}` } } }),
      );

      elsewhere = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(elsewhereBody);
      });
      await new Promise<void>((ok) => elsewhere.listen(0, '127.0.0.1', ok));
      elsewhereUrl = `http://localhost:${(elsewhere.address() as { port: number }).port}/`;

      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      approver = await newContext();
    });

    after(async () => {
      await browser?.close();
      await agent?.close();
      await new Promise((ok) => (elsewhere ? elsewhere.close(ok) : ok(undefined)));
      await t?.close();
    });

    it("Continue: the link leads through sign-in to the call, runs it once as the approver, and the agent's re-call gets the result", async () => {
      const { invoice, args, url, id } = await pendingCancel('Issued to the wrong customer');
      assert.equal(await invoiceStatus(invoice.id), 'sent');
      const path = new URL(url).pathname;

      const page = await approver.newPage();
      const opened = await page.goto(url);
      assert.equal(opened?.status(), 200);
      assert.equal(new URL(page.url()).pathname, '/admin/login');
      assert.equal(new URL(page.url()).searchParams.get('next'), path);
      // The inline style sheet is allowed by its CSP hash (a wrong hash would leave the page unstyled).
      assert.equal(
        await page.locator('header').evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor as string),
        'rgb(29, 36, 51)',
      );
      await shot(page, '01-sign-in');

      await signIn(page, APPROVER.email, APPROVER.password);
      assert.equal(new URL(page.url()).pathname, path, 'back on the approval after sign-in');
      const main = page.locator('main');
      await assert.doesNotReject(main.getByRole('heading', { name: 'Approve “Cancel an invoice”?' }).waitFor());
      const text = await main.innerText();
      for (const expected of [
        // The 2025-era client named itself in `initialize` only; stateless mode remembers it per caller.
        'Invoice Assistant',
        'Cancel an invoice',
        'billing_invoice_cancel',
        'Demo Company',
        REQUESTER.name,
        REQUESTER.email,
        invoice.id,
        'Issued to the wrong customer',
        'Side effects: irreversible',
      ]) {
        assert.ok(text.includes(expected), `the page shows ${expected}`);
      }
      assert.deepEqual((await main.locator('table.args th').allInnerTexts()).sort(), ['invoice_id', 'reason']);
      await shot(page, '02-approval');

      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForLoadState('load');
      await assert.doesNotReject(page.getByRole('heading', { name: 'Done: Cancel an invoice ran' }).waitFor());
      assert.match(await main.innerText(), /Decided by\s+Demo Admin/);
      await shot(page, '03-continue-done');

      assert.equal(await invoiceStatus(invoice.id), 'cancelled');
      const runs = await panelRuns(t, invoice.id);
      assert.equal(runs.length, 1, 'cancelled exactly once');
      assert.equal(runs[0].userId, approverId, 'the audit names the approver');
      const decision = await t.prisma.client.mcpAuditEvent.findMany({
        where: { method: 'approval/continue', arguments: { path: ['approval_id'], equals: id } },
      });
      assert.deepEqual(
        decision.map((e) => [e.userId, e.channel]),
        [[approverId, 'panel']],
      );
      const approval = await t.prisma.client.mcpApproval.findUniqueOrThrow({ where: { id } });
      assert.deepEqual([approval.status, approval.decidedById], ['executed', approverId]);

      const again = await call(args);
      assert.equal(again.isError, false);
      assert.equal(again.envelope.status, 'success', JSON.stringify(again.envelope));
      assert.equal(again.envelope.data.status, 'cancelled');
      assert.equal(again.envelope.data.id, invoice.id);
      assert.equal((await panelRuns(t, invoice.id)).length, 1);
      await page.close();
    });

    it('names a 2025-era client by its initialize in the default stateless mode: on the page and in the audit rows', async () => {
      // Another agent of the requester, with a token of its own: the official 1.x client names itself
      // in `initialize` only, and this server (no stream mode) gives it no session to keep it in.
      const token = await t.token({ email: REQUESTER.email, label: 'Acme Desk token' });
      const desk = new Client({ name: 'Acme Desk', version: '5.0.1' });
      const transport = new StreamableHTTPClientTransport(new URL(t.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await desk.connect(transport);
      try {
        assert.equal(transport.sessionId, undefined, 'stateless: no session');
        const invoice = await unpaidInvoice(t, requesterToken);
        const result = (await desk.callTool({
          name: 'billing_invoice_cancel',
          arguments: { invoice_id: invoice.id, reason: 'Sent twice' },
        })) as { content: Array<{ text: string }> };
        const envelope = JSON.parse(result.content[0].text) as Envelope;
        assert.equal(envelope.status, 'pending_confirmation', result.content[0].text);

        const page = await approver.newPage();
        await page.goto(envelope.approval!.url);
        const shown = await page.locator('dl.facts dt:text-is("Client") + dd').innerText();
        assert.equal(shown, 'Acme Desk 5.0.1 · token “Acme Desk token”');
        assert.doesNotMatch(await page.locator('main').innerText(), /unnamed client/);
        await shot(page, '02b-approval-2025-client');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForLoadState('load');
        await assert.doesNotReject(page.getByRole('heading', { name: 'Done: Cancel an invoice ran' }).waitFor());
        await page.close();

        // The agent's call and the run the person approved, both audited under the client's name.
        const rows = await t.prisma.client.mcpAuditEvent.findMany({
          where: { method: 'tools/call', target: 'billing_invoice_cancel', arguments: { path: ['invoice_id'], equals: invoice.id } },
          orderBy: { occurredAt: 'asc' },
        });
        assert.deepEqual(
          rows.map((row) => [row.channel, row.clientName, row.clientVersion]),
          [
            ['mcp', 'Acme Desk', '5.0.1'],
            ['panel', 'Acme Desk', '5.0.1'],
          ],
        );
      } finally {
        await desk.close();
      }
    });

    it('a second submit of the same form (another tab, or a double click) gets the 409 page and runs nothing again', async () => {
      const { invoice, url } = await pendingCancel('Duplicate invoice');
      const first = await approver.newPage();
      const second = await approver.newPage();
      await first.goto(url);
      await second.goto(url);
      await first.getByRole('button', { name: 'Continue' }).click();
      await first.waitForLoadState('load');
      await assert.doesNotReject(first.getByRole('heading', { name: 'Done: Cancel an invoice ran' }).waitFor());
      const [response] = await Promise.all([
        second.waitForResponse((r) => r.url().endsWith('/decision')),
        second.getByRole('button', { name: 'Continue' }).click(),
      ]);
      assert.equal(response.status(), 409);
      await assert.doesNotReject(second.getByRole('heading', { name: 'Already decided: nothing was run again' }).waitFor());
      await shot(second, '04-second-click-409');
      assert.equal((await panelRuns(t, invoice.id)).length, 1);

      // A real double click on Continue: two POSTs reach the server, one runs.
      const raced = await pendingCancel('Double clicked');
      const page = await approver.newPage();
      await page.goto(raced.url);
      const posts: number[] = [];
      page.on('response', (r) => {
        if (r.url().endsWith('/decision')) posts.push(r.status());
      });
      await page.getByRole('button', { name: 'Continue' }).dblclick();
      await page.waitForLoadState('load');
      await assert.doesNotReject(page.getByRole('heading', { name: /Done: Cancel an invoice ran|Already decided/ }).waitFor());
      for (let i = 0; i < 50 && (await approvalStatus(raced.id)) === 'pending'; i++) await new Promise((ok) => setTimeout(ok, 100));
      assert.equal((await panelRuns(t, raced.invoice.id)).length, 1, `one run for ${posts.length} submit(s): ${posts.join(', ')}`);
      await Promise.all([first.close(), second.close(), page.close()]);
    });

    it('Cancel: nothing runs and the agent is told a person refused', async () => {
      const { invoice, args, url, id } = await pendingCancel('Please cancel this one');
      const page = await approver.newPage();
      await page.goto(url);
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.waitForLoadState('load');
      await assert.doesNotReject(page.getByRole('heading', { name: 'Cancelled: Cancel an invoice did not run' }).waitFor());
      await shot(page, '05-cancelled');
      assert.equal(await invoiceStatus(invoice.id), 'sent');
      assert.equal(await approvalStatus(id), 'denied');
      assert.equal((await panelRuns(t, invoice.id)).length, 0);
      const again = await call(args);
      assert.equal(again.isError, true);
      assert.equal(again.envelope.errors[0].code, 'approval_denied');
      await page.close();
    });

    it('an expired link shows the expired page (410) without buttons', async () => {
      const { invoice, url, id } = await pendingCancel('Too late');
      await expireApproval(t, id);
      const page = await approver.newPage();
      const response = await page.goto(url);
      assert.equal(response?.status(), 410);
      await assert.doesNotReject(page.getByRole('heading', { name: 'This approval link has expired' }).waitFor());
      assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0);
      await shot(page, '06-expired-410');
      assert.equal(await invoiceStatus(invoice.id), 'sent');
      await page.close();
    });

    it('a POST without the CSRF token gets the 403 page; a forged form on another site changes nothing', async () => {
      const { invoice, url, id } = await pendingCancel('No token');
      const page = await approver.newPage();
      await page.goto(url);
      await page.locator('form[action$="/decision"] input[name="_csrf"]').evaluate((input) => input.remove());
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/decision')),
        page.getByRole('button', { name: 'Continue' }).click(),
      ]);
      assert.equal(response.status(), 403);
      await assert.doesNotReject(page.getByRole('heading', { name: 'Request refused' }).waitFor());
      await shot(page, '07-csrf-403');
      // The same POST through the signed-in browser's own cookies, without a token.
      const direct = await approver.request.post(`${url}/decision`, { form: { decision: 'continue' }, maxRedirects: 0 });
      assert.equal(direct.status(), 403);

      // An attacker's page on another site auto-submits a form to the decision URL: SameSite=Strict
      // keeps the session cookie home, so it lands on sign-in and nothing runs.
      elsewhereBody = `<!doctype html><form id="f" method="post" action="${url}/decision"><input name="decision" value="continue"></form><script>document.getElementById('f').submit()</script>`;
      const attacked = await approver.newPage();
      await attacked.goto(elsewhereUrl);
      await attacked.waitForURL(/\/admin\/login/);
      assert.equal(await approvalStatus(id), 'pending');
      assert.equal(await invoiceStatus(invoice.id), 'sent');
      assert.equal((await panelRuns(t, invoice.id)).length, 0);
      await Promise.all([page.close(), attacked.close()]);
    });

    it('a link followed from a chat app on another site opens the approval for a signed-in approver (no second sign-in)', async () => {
      const { url } = await pendingCancel('From the chat');
      elsewhereBody = `<!doctype html><p>Your agent says: <a id="link" href="${url}">approve here</a></p>`;
      const page = await approver.newPage();
      const requests: string[] = [];
      page.on('request', (r) => {
        if (r.url() === url) requests.push(r.url());
      });
      await page.goto(elsewhereUrl);
      await page.click('#link');
      await page.waitForURL(url);
      await assert.doesNotReject(page.getByRole('heading', { name: /^Approve “.+”\?$/ }).waitFor());
      // Two requests: the cross-site click (no session cookie sent: answered with a same-origin
      // re-open), then that re-open, which carried the cookie.
      assert.equal(requests.length, 2);
      await page.close();
    });

    it("another workspace's admin gets the not-found page (404) and cannot decide", async () => {
      const { invoice, url, id } = await pendingCancel('Not yours');
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(url);
      await signIn(page, OUTSIDER.email, OUTSIDER.password);
      assert.equal(new URL(page.url()).pathname, new URL(url).pathname);
      await assert.doesNotReject(page.getByRole('heading', { name: 'Approval not found' }).waitFor());
      const reload = await page.reload();
      assert.equal(reload?.status(), 404);
      assert.doesNotMatch(await page.locator('main').innerText(), /Not yours|Cancel an invoice|Demo Company/);
      await shot(page, '08-other-workspace-404');
      const post = await context.request.post(`${url}/decision`, { form: { decision: 'continue', _csrf: 'x' }, maxRedirects: 0 });
      assert.equal(post.status(), 403, 'without its own token');
      assert.equal(await approvalStatus(id), 'pending');
      assert.equal(await invoiceStatus(invoice.id), 'sent');
      await context.close();
    });

    it('shows hostile argument text as text: no script runs, no dialog opens', async () => {
      const { url } = await pendingCancel(HOSTILE);
      const page = await approver.newPage();
      await page.goto(url);
      const cell = page.locator('table.args td').filter({ hasText: '<script>alert("pwned")</script>' });
      assert.equal(await cell.count(), 1, 'the text is shown literally');
      assert.equal(await page.locator('main script, main img').count(), 0, 'no element was created from it');
      await shot(page, '09-hostile-arguments');
      await page.close();
    });

    it('shows what the ids refer to: the invoice number, customer and amount of a cancel; "(not found)" for an unknown id', async () => {
      const { invoice, url } = await pendingCancel('Wrong amount', { name: 'Zeta Freight', email: `zeta-${Date.now()}@zeta.test` });
      const page = await approver.newPage();
      await page.goto(url);
      const reference = await page
        .locator('table.args tr', { has: page.locator('th', { hasText: 'invoice_id' }) })
        .locator('.reference')
        .innerText();
      assert.equal(reference, `Invoice ${invoice.number} · Zeta Freight · 3,750.00 MXN (sent)`);
      await shot(page, '11-approval-references');

      const missing = await call({ invoice_id: '00000000-0000-4000-8000-000000000000', reason: 'No such invoice' });
      assert.equal(missing.envelope.status, 'pending_confirmation', 'the approval comes before the tool looks the invoice up');
      await page.goto(missing.envelope.approval!.url);
      assert.equal(await page.locator('table.args .reference').innerText(), '(not found)');
      await page.close();
    });

    it('renders bidi control characters in names and arguments as visible \\u escapes, never as controls', async () => {
      const disguised = 'Acme \u202Egnp.exe';
      const { url } = await pendingCancel('Refund \u2066reason\u2069 \u200F', { name: disguised, email: `bidi-${Date.now()}@acme.test` });
      const page = await approver.newPage();
      await page.goto(url);
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/, 'no bidi control reaches the page');
      assert.ok(text.includes('Acme \\u202Egnp.exe'), 'the customer name shows the control as an escape');
      assert.ok(text.includes('Refund \\u2066reason\\u2069 \\u200F'), 'so does the argument');
      await shot(page, '12-bidi-escaped');
      await page.close();
    });

    it('lists the pending approvals and signs out', async () => {
      const page = await approver.newPage();
      await page.goto(new URL('/admin/approvals', t.baseUrl).toString());
      await assert.doesNotReject(page.getByRole('heading', { name: 'Pending approvals' }).waitFor());
      assert.ok((await page.locator('main table tbody tr').count()) >= 1);
      await shot(page, '10-pending-list');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/admin\/login$/);
      const back = await page.goto(new URL('/admin/approvals', t.baseUrl).toString());
      assert.equal(new URL(page.url()).pathname, '/admin/login');
      assert.equal(back?.status(), 200);
      await page.close();
    });

    it('had no console error, CSP violation, script error or dialog on any page', () => {
      // Error pages (403, 404, 409, 410) are logged by Chromium as failed loads: expected here.
      const expected = /^console: Failed to load resource: the server responded with a status of (403|404|409|410) /;
      assert.deepEqual(
        problems.filter((p) => !expected.test(p)),
        [],
      );
    });
  },
);
