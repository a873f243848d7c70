import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { RequestContext } from '../../src/context/request-context.js';
import type { Role } from '../../src/generated/prisma/client.js';
import { hashPanelPassword } from '../../src/panel/panel-password.js';
import type { BillingTestApp } from './billing-app.js';
import { restCall } from './rest-http.js';
import { callTool } from '@nest-mcp/core/testing';

/** One HTTP answer of the admin pages (redirects are not followed). */
export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
  location?: string;
  setCookies: string[];
}

/** A browser-less visitor of the admin pages: a cookie jar, form posts, no redirect following. */
export class PanelVisitor {
  readonly cookies = new Map<string, string>();

  /** `localAddress`: the loopback address to connect from (e.g. `127.0.0.2`), the panel's client address. */
  constructor(
    private readonly baseUrl: string,
    private readonly localAddress?: string,
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<PageAnswer> {
    return this.send('GET', path, undefined, headers);
  }

  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<PageAnswer> {
    return this.send('POST', path, new URLSearchParams(form).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    });
  }

  /** Gets the sign-in form and posts it; returns the POST's answer. */
  async signIn(email: string, password: string, next?: string): Promise<PageAnswer> {
    const form = await this.get(`/admin/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    assert.equal(form.status, 200, form.text);
    return this.post('/admin/login', { _csrf: csrfOf(form.text), email, password, ...(next ? { next } : {}) });
  }

  private async send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<PageAnswer> {
    const jar = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const init = { method, headers: { ...(jar ? { cookie: jar } : {}), ...headers }, body };
    const response = this.localAddress
      ? await requestFrom(this.localAddress, `${this.baseUrl}${path}`, init)
      : await fetch(`${this.baseUrl}${path}`, { ...init, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || !value;
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location') ?? undefined,
      setCookies,
    };
  }
}

/** One request over node:http from `localAddress` (fetch cannot choose it), as a fetch Response. */
function requestFrom(
  localAddress: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: init.headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers }));
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The `_csrf` hidden field of the (first) form on a page. */
export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  assert.ok(match, `no _csrf field in: ${page.slice(0, 500)}`);
  return match[1];
}

/** Gives a user a panel password (Argon2id hash), as an operator would. */
export async function setPanelPassword(t: BillingTestApp, email: string, password: string): Promise<void> {
  await t.prisma.client.user.update({ where: { email }, data: { passwordHash: await hashPanelPassword(password) } });
}

/** A user with a role in a workspace (both created when missing), optionally with a panel password. */
export async function addMember(
  t: BillingTestApp,
  user: { email: string; name: string; workspace: string; role: Role; password?: string },
): Promise<{ userId: string; workspaceId: string }> {
  return RequestContext.run({ channel: 'system' }, async () => {
    const workspace = await t.prisma.client.workspace.upsert({
      where: { slug: user.workspace },
      create: { slug: user.workspace, name: `Workspace ${user.workspace}` },
      update: {},
    });
    const row = await t.prisma.client.user.upsert({
      where: { email: user.email },
      create: { email: user.email, name: user.name, ...(user.password ? { passwordHash: await hashPanelPassword(user.password) } : {}) },
      update: user.password ? { passwordHash: await hashPanelPassword(user.password) } : {},
    });
    await t.prisma.client.membership.upsert({
      where: { userId_workspaceId: { userId: row.id, workspaceId: workspace.id } },
      create: { userId: row.id, workspaceId: workspace.id, role: user.role },
      update: { role: user.role },
    });
    return { userId: row.id, workspaceId: workspace.id };
  });
}

/**
 * An agent's `tools/call` from a 2026-era client that declared no elicitation (so destructive
 * tools answer with an approval link): the parsed JSON envelope and the raw result.
 */
export async function agentCall(
  t: BillingTestApp,
  token: string,
  name: string,
  args: Record<string, unknown>,
  clientInfo = { name: 'Invoice Assistant', version: '3.1.0' },
) {
  const answer = await callTool(t.mcpUrl, name, args, { token, clientInfo });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(answer.body.result, answer.text);
  return { envelope: answer.envelope, result: answer.body.result };
}

/** A customer and an unpaid invoice of the demo workspace, created over REST. */
export async function unpaidInvoice(
  t: BillingTestApp,
  token: string,
  customer = { name: 'Acme Logistics', email: `billing-${Math.random().toString(36).slice(2, 8)}@acme.test` },
) {
  const created = await restCall(t, token, 'POST', '/v1/customers', customer);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const invoice = await restCall(t, token, 'POST', '/v1/invoices', {
    customer_id: created.body.id,
    currency: 'MXN',
    issue_date: day(-2),
    due_date: day(28),
    lines: [{ description: 'Consulting', quantity: 3, unit_price_minor: 125_000 }],
  });
  assert.equal(invoice.status, 201, JSON.stringify(invoice.body));
  return invoice.body as { id: string; number: string; status: string };
}

/** The `tools/call` audit rows of billing_invoice_cancel runs that an approval on the admin pages started. */
export function panelRuns(t: BillingTestApp, invoiceId: string) {
  return t.prisma.client.mcpAuditEvent.findMany({
    where: {
      channel: 'panel',
      method: 'tools/call',
      target: 'billing_invoice_cancel',
      arguments: { path: ['invoice_id'], equals: invoiceId },
    },
  });
}

/** Moves an approval's expiry into the past (as the system, like a clock that moved on). */
export async function expireApproval(t: BillingTestApp, id: string): Promise<void> {
  // Awaited inside the context: a Prisma query runs when awaited, and the stamp needs the channel.
  await RequestContext.run({ channel: 'system' }, async () => {
    await t.prisma.client.mcpApproval.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  });
}
