/**
 * What the approval page tells the person deciding, in a real browser (a person approves what they can read): a module's own
 * ids described by its ApprovalDescriber (a ticket's subject, not a UUID); the client named by
 * its `initialize` (a 2025-era SDK 1.x client in stream mode, whose session keeps it) and the token
 * the call came with; and the tool's title and side effects instead of the model's "When to use…".
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Controller, Injectable, Module, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { IsUUID } from 'class-validator';
import { McpTool, RequiredScopes } from '@nest-mcp/core';
import { DescribesApprovalIds, type ApprovalDescriber, type ApprovalDescriberContext } from '@nest-mcp/admin';
import { WorkspaceScopedDto } from '../../src/identity/workspace-scoped.dto.js';
import { WorkspaceScoped } from '../../src/identity/workspace-scoped.decorator.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';
import { setPanelPassword } from '../support/panel.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const APPROVER = { email: 'admin@demo.test', password: 'approver password 1' };
const TICKET = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
const OTHER_WORKSPACE_TICKET = '0b8e7d6c-5a4b-4c3d-9e2f-1a0b9c8d7e6f';
const UNKNOWN_TICKET = '11111111-2222-4333-8444-555555555555';

/** A helpdesk module of another team: its tickets, and the describer that names them on the page. */
const tickets = new Map<string, { workspace: string; subject: string; number: number }>();

class CloseTicketDto extends WorkspaceScopedDto {
  @IsUUID()
  ticket_id: string;
}

@WorkspaceScoped()
@Controller('v1/tickets')
class TicketsController {
  @Post(':ticket_id/close')
  @RequiredScopes('billing:admin')
  @McpTool({
    name: 'helpdesk_ticket_close',
    title: 'Close a support ticket',
    description:
      'When to use: the user asks to close a ticket that is solved. Never use for: tickets still waiting on the customer. ' +
      'Side effects: the ticket is closed and the customer is emailed. Success criteria: ok is true. ' +
      'Fallback: if not_found, search the tickets first.',
    annotations: { destructiveHint: true },
    input: CloseTicketDto,
  })
  close(@Param('ticket_id', ParseUUIDPipe) id: string) {
    return { id, status: 'closed' };
  }
}

@Injectable()
@DescribesApprovalIds('ticket_id')
class TicketApprovalDescriber implements ApprovalDescriber {
  describe(ids: string[], { workspaceId }: ApprovalDescriberContext): Promise<ReadonlyMap<string, string>> {
    const found = ids.flatMap((id) => {
      const ticket = tickets.get(id);
      return ticket && ticket.workspace === workspaceId ? [[id, `Ticket #${ticket.number} · ${ticket.subject}`] as const] : [];
    });
    return Promise.resolve(new Map(found));
  }
}

@Module({ controllers: [TicketsController], providers: [TicketApprovalDescriber] })
class HelpdeskModule {}

describe(
  'approval page in Chromium: what the person deciding reads',
  { skip: existsSync(CHROMIUM) || process.env.CI ? false : `no browser at ${CHROMIUM} (CI installs it: .ci/run)` },
  () => {
    let t: BillingTestApp;
    let browser: Browser;
    let agent: Client;
    let page: Page;

    const closeTicket = async (ticketId: string) => {
      const result = (await agent.callTool({ name: 'helpdesk_ticket_close', arguments: { ticket_id: ticketId } })) as {
        content: Array<{ text: string }>;
      };
      const envelope = JSON.parse(result.content[0].text) as { status: string; approval?: { url: string } };
      assert.equal(envelope.status, 'pending_confirmation', result.content[0].text);
      return envelope.approval!.url;
    };
    const reference = (argument: string) =>
      page.locator('table.args tr', { has: page.locator('th', { hasText: argument }) }).locator('.reference');

    before(async () => {
      t = await withEnv({ MCP_STREAMS: 'true' }, () => startBillingApp(HelpdeskModule));
      await setPanelPassword(t, APPROVER.email, APPROVER.password);
      const demo = await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
      tickets.set(TICKET, { workspace: demo.id, subject: 'Printer on fire', number: 42 });
      tickets.set(OTHER_WORKSPACE_TICKET, { workspace: 'another workspace', subject: 'Not yours', number: 7 });
      const token = await t.token({ label: 'Support bot' });
      // The official SDK 1.x client: 2025 era, no elicitation; it names itself in `initialize` only.
      agent = new Client({ name: 'Ticket Assistant', version: '2.0.0' });
      await agent.connect(
        new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      page = await (await browser.newContext()).newPage();
      await page.goto(new URL('/admin/login', t.baseUrl).toString());
      await page.getByLabel('Email').fill(APPROVER.email);
      await page.getByLabel('Password').fill(APPROVER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState('load');
    });

    after(async () => {
      await browser?.close();
      await agent?.close();
      await t?.close();
    });

    it("names the record a module's id argument points at, through the module's describer", async () => {
      await page.goto(await closeTicket(TICKET));
      assert.equal(await reference('ticket_id').innerText(), 'Ticket #42 · Printer on fire');
    });

    it('reads "(not found)" for an id the describer does not know, or knows in another workspace only', async () => {
      await page.goto(await closeTicket(UNKNOWN_TICKET));
      assert.equal(await reference('ticket_id').innerText(), '(not found)');
      await page.goto(await closeTicket(OTHER_WORKSPACE_TICKET));
      assert.equal(await reference('ticket_id').innerText(), '(not found)');
    });

    it("names the 2025-era client by its initialize (the session's clientInfo), and the token it called with", async () => {
      await page.goto(await closeTicket(TICKET));
      const client = await page.locator('dl.facts dt:text-is("Client") + dd').innerText();
      assert.equal(client, 'Ticket Assistant 2.0.0 · token “Support bot”');
      assert.doesNotMatch(await page.locator('main').innerText(), /unnamed client/);
    });

    it("says what Continue does in the tool's title and side effects, not the model's guidance", async () => {
      await page.goto(await closeTicket(TICKET));
      await assert.doesNotReject(page.getByRole('heading', { name: 'Approve “Close a support ticket”?' }).waitFor());
      const text = await page.locator('main').innerText();
      assert.ok(text.includes('Side effects: the ticket is closed and the customer is emailed.'), text);
      for (const guidance of ['When to use', 'Never use for', 'Success criteria', 'Fallback', 'search the tickets first']) {
        assert.ok(!text.includes(guidance), `the page does not show "${guidance}"`);
      }
    });
  },
);
