import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { McpModule, McpTool } from '@nest-mcp/core';
import { MCP_APPROVAL_LINKS } from '@nest-mcp/core/extensions';
import { callTool, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { McpChannel, McpDatabase, McpPrismaModule, mcpPrismaExtensions } from '@nest-mcp/prisma';
import { headerIdentity, McpAdminApprovalLinks, McpAdminModule, mcpAdminExtensions, type McpAdminDirectory } from '../../src/index.js';
import { createAdminDatabase, NEEDS_DATABASE, type AdminDatabase } from '../support/admin-database.js';

/**
 * `McpAdminModule` in a tiny app (an SSO proxy's headers as the sign-in, one destructive tool) on a
 * real PostgreSQL: the agent gets a link, the page shows the call to an approver only, Continue runs
 * it once (two clicks at once: one runs, the other gets 409), Cancel runs nothing, an expired link
 * is gone (410), a form without the CSRF token is refused (403), and every decision is audited.
 */

class NoteDto {
  @IsString()
  title!: string;
}

let runs = 0;

@Injectable()
class NoteTools {
  constructor(private readonly database: McpDatabase) {}

  @McpTool({ description: 'Deletes a note. When to use: a person asked to.', annotations: { destructiveHint: true } })
  async note_delete(input: NoteDto) {
    runs++;
    const via = McpChannel.current() ?? 'none';
    await this.database.sql(sql`INSERT INTO notes (title, created_via, updated_via) VALUES (${`deleted:${input.title}`}, ${via}, ${via})`);
    await sleep(100);
    return { deleted: input.title };
  }
}

/** Ada approves in tenant t1; Bob asks there and approves nothing; tenant t2 is someone else's. */
const directory: McpAdminDirectory = {
  tenantsWhere: async (personId, purpose) => (personId === 'ada' && purpose === 'approve' ? ['t1'] : []),
  people: async (ids) => new Map(ids.filter((id) => id in PEOPLE).map((id) => [id, PEOPLE[id]])),
  tenants: async (ids) => new Map(ids.filter((id) => id === 't1').map((id) => [id, { name: 'Tenant One', slug: 'one' }])),
};
const PEOPLE: Record<string, { name: string; email: string }> = {
  ada: { name: 'Ada Approver', email: 'ada@example.test' },
  bob: { name: 'Bob Asker', email: 'bob@example.test' },
};

let publicUrl = 'http://127.0.0.1';

function appModule(url: string) {
  @Module({
    imports: [
      McpPrismaModule.forRoot({
        connection: { url },
        audit: { actor: (call) => ({ userId: String(call.context.httpRequest.headers['x-user'] ?? ''), workspaceId: 't1' }) },
        cleanupIntervalMs: 0,
      }),
      McpModule.forRoot({
        serverInfo: { name: 'notes', version: '1.0.0' },
        destructiveConfirmation: 'link',
        ...mcpPrismaExtensions(),
        ...mcpAdminExtensions(),
      }),
      McpAdminModule.forRoot({
        path: '/ops',
        publicUrl: () => publicUrl,
        identity: headerIdentity({ idHeader: 'x-user', nameHeader: 'x-user-name' }),
        directory,
        requester: (invocation) => {
          const person = invocation.httpRequest.headers['x-user'];
          return typeof person === 'string' ? { tenantId: 't1', personId: person, credentialId: `${person}-token` } : undefined;
        },
        actAs: (person, _approval, request) => {
          request.headers['x-user'] = person.id;
        },
      }),
    ],
    providers: [NoteTools],
  })
  class NotesApp {}
  return NotesApp;
}

/** A browser of the pages behind the proxy: its headers name the person; a cookie jar. */
class Visitor {
  private readonly cookies = new Map<string, string>();
  constructor(
    private readonly person: string,
    private readonly baseUrl: () => string,
  ) {}

  async send(method: 'GET' | 'POST', path: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const jar = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl()}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        'x-user': this.person,
        ...(jar ? { cookie: jar } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return { status: response.status, headers: response.headers, text: await response.text(), setCookies: response.headers.getSetCookie() };
  }
}

const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? assert.fail(`no _csrf in ${page.slice(0, 300)}`);

describe('McpAdminModule: approval links and pages (real PostgreSQL, SSO-header identity)', { skip: NEEDS_DATABASE }, () => {
  let database: AdminDatabase;
  let t: McpTestApp;
  const agent = (title: string) =>
    callTool(t.mcpUrl, 'note_delete', { title }, { headers: { 'x-user': 'bob', authorization: 'Bearer bob' } });
  const approval = async (id: string) =>
    (
      await database.rows<{ status: string; decided_by_id: string | null }>(
        'SELECT status, decided_by_id FROM mcp_approvals WHERE id = $1',
        [id],
      )
    )[0];
  const audit = (method: string, approvalId: string) =>
    database.rows<{ channel: string; outcome: string; user_id: string; workspace_id: string }>(
      `SELECT channel, outcome, user_id, workspace_id FROM mcp_audit_events WHERE method = $1 AND arguments->>'approval_id' = $2`,
      [method, approvalId],
    );
  const deleted = (title: string) =>
    database.rows<{ created_via: string }>('SELECT created_via FROM notes WHERE title = $1', [`deleted:${title}`]);
  const pending = async (title: string) => {
    const answer = await agent(title);
    assert.equal(answer.envelope.status, 'pending_confirmation', answer.text);
    const link = new URL(answer.envelope.approval!.url);
    return { id: answer.envelope.approval!.id, path: link.pathname, url: answer.envelope.approval!.url };
  };

  before(async () => {
    database = await createAdminDatabase();
    t = await startMcpTestApp(appModule(database.url));
    publicUrl = t.baseUrl;
  });
  after(async () => {
    await t?.close();
    await database?.close();
  });

  it("fills the layer's approvalLinks, and answers a destructive call with an absolute link under the path", async () => {
    assert.ok(t.app.get(MCP_APPROVAL_LINKS) instanceof McpAdminApprovalLinks);
    const { id, url } = await pending('first');
    assert.equal(url, `${t.baseUrl}/ops/approvals/${id}`);
    assert.equal((await approval(id)).status, 'pending');
    assert.equal((await pending('first')).id, id, 'an identical call finds the same approval');
    assert.equal(runs, 0);
  });

  it('shows the page to an approver only, with the security headers; nobody signed in goes to sign in', async () => {
    const { path } = await pending('shown');
    const ada = new Visitor('ada', () => t.baseUrl);
    const page = await ada.send('GET', path);
    assert.equal(page.status, 200);
    assert.match(page.text, /Approve “note_delete”\?/);
    assert.match(page.text, /Bob Asker/);
    assert.match(page.text, /Tenant One/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const csrfCookie = page.setCookies.find((line) => line.startsWith('mcp_admin_csrf='));
    assert.match(csrfCookie ?? '', /HttpOnly/i);
    assert.match(csrfCookie ?? '', /SameSite=Strict/i);
    assert.match(csrfCookie ?? '', /Path=\/ops/);

    const bob = await new Visitor('bob', () => t.baseUrl).send('GET', path);
    assert.equal(bob.status, 404);
    assert.match(bob.text, /Approval not found/);
    assert.doesNotMatch(bob.text, /shown/);

    const anonymous = await fetch(`${t.baseUrl}${path}`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get('location'), path, 'the proxy signs in on the page itself');
    assert.equal(anonymous.headers.get('x-frame-options'), 'DENY');
  });

  it('Continue runs the call once as the approver: two submits at once, one runs and the other gets 409; audited', async () => {
    const { id, path } = await pending('twice');
    const ada = new Visitor('ada', () => t.baseUrl);
    const csrf = csrfOf((await ada.send('GET', path)).text);
    const before = runs;
    const answers = await Promise.all([
      ada.send('POST', `${path}/decision`, { _csrf: csrf, decision: 'continue' }),
      ada.send('POST', `${path}/decision`, { _csrf: csrf, decision: 'continue' }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    assert.match(answers.find((a) => a.status === 200)!.text, /Done: note_delete ran/);
    assert.match(answers.find((a) => a.status === 409)!.text, /Already decided: nothing was run again/);
    assert.equal(runs - before, 1);
    assert.deepEqual(await approval(id), { status: 'executed', decided_by_id: 'ada' });
    assert.deepEqual(await deleted('twice'), [{ created_via: 'admin' }], "the call's writes are in the pages' channel");
    assert.deepEqual(await audit('approval/continue', id), [{ channel: 'admin', outcome: 'success', user_id: 'ada', workspace_id: 't1' }]);
    const again = await agent('twice');
    assert.equal(again.envelope.ok, true, again.text);
    assert.deepEqual(again.envelope.data, { deleted: 'twice' }, "the agent's identical call gets the result");
    assert.equal(runs - before, 1);
  });

  it('Cancel runs nothing, is audited, and the agent is told a person refused', async () => {
    const { id, path } = await pending('refused');
    const ada = new Visitor('ada', () => t.baseUrl);
    const csrf = csrfOf((await ada.send('GET', path)).text);
    const answer = await ada.send('POST', `${path}/decision`, { _csrf: csrf, decision: 'cancel' });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /Cancelled: note_delete did not run/);
    assert.equal((await approval(id)).status, 'denied');
    assert.deepEqual(await deleted('refused'), []);
    assert.deepEqual(await audit('approval/cancel', id), [{ channel: 'admin', outcome: 'success', user_id: 'ada', workspace_id: 't1' }]);
    const again = await agent('refused');
    assert.equal(again.envelope.ok, false, again.text);
  });

  it('an expired link answers 410 on GET and POST, and runs nothing', async () => {
    const { id, path } = await pending('late');
    const ada = new Visitor('ada', () => t.baseUrl);
    const csrf = csrfOf((await ada.send('GET', path)).text);
    await database.rows(`UPDATE mcp_approvals SET expires_at = now() AT TIME ZONE 'UTC' - interval '1 minute' WHERE id = $1`, [id]);
    const view = await ada.send('GET', path);
    assert.equal(view.status, 410);
    assert.match(view.text, /This approval link has expired/);
    const post = await ada.send('POST', `${path}/decision`, { _csrf: csrf, decision: 'continue' });
    assert.equal(post.status, 410);
    assert.equal((await approval(id)).status, 'pending');
    assert.deepEqual(await deleted('late'), []);
  });

  it('a POST without the CSRF token, with a wrong one, or from another origin is refused (403) and changes nothing', async () => {
    const { id, path } = await pending('forged');
    const ada = new Visitor('ada', () => t.baseUrl);
    const csrf = csrfOf((await ada.send('GET', path)).text);
    for (const [form, headers] of [
      [{ decision: 'continue' }, {}],
      [{ decision: 'continue', _csrf: 'guess' }, {}],
      [{ decision: 'continue', _csrf: csrf }, { origin: 'https://evil.test' }],
    ] as Array<[Record<string, string>, Record<string, string>]>) {
      const answer = await ada.send('POST', `${path}/decision`, form, headers);
      assert.equal(answer.status, 403);
      assert.match(answer.text, /Request refused/);
      assert.doesNotMatch(answer.text, /at .*\.ts:\d+/, 'no stack trace');
    }
    assert.equal((await approval(id)).status, 'pending');
    assert.deepEqual(await audit('approval/continue', id), []);
  });

  it('answers unknown pages under the path with a 404 page, and an empty tasks list', async () => {
    const ada = new Visitor('ada', () => t.baseUrl);
    const missing = await ada.send('GET', '/ops/nowhere');
    assert.equal(missing.status, 404);
    assert.match(missing.text, /There is no such page here/);
    const tasks = await ada.send('GET', '/ops/tasks');
    assert.equal(tasks.status, 200);
    assert.match(tasks.text, /Nothing is running\./);
  });
});
