import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AppProcess } from './app-process.js';

const VERSION = '2025-11-25';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * Hand-made MCP (handshake era, stream mode) and REST calls to server processes, as one caller
 * (its bearer token): for the multi-process tests, where any request may go to any replica.
 */
export class ReplicaCalls {
  constructor(private readonly token: string) {}

  headers(session?: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      ...(session ? { 'mcp-session-id': session } : {}),
      ...extra,
    };
  }

  static rpc(method: string, params: Record<string, unknown> = {}, id: number | string = 1): string {
    return JSON.stringify({ jsonrpc: '2.0', id, method, params });
  }

  /** A handshake-era session opened on `app` by a client that declared form elicitation, initialized. */
  async openSession(app: AppProcess): Promise<string> {
    const response = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: this.headers(),
      body: ReplicaCalls.rpc('initialize', {
        protocolVersion: VERSION,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'replica-test', version: '1.0.0' },
      }),
    });
    assert.equal(response.status, 200);
    const session = response.headers.get('mcp-session-id');
    assert.ok(session, 'initialize issued a session');
    await response.text();
    const initialized = await this.post(app, session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.equal(initialized.status, 202);
    return session;
  }

  /** One POST in a session: its status and body text. */
  async post(app: AppProcess, session: string, body: string): Promise<{ status: number; text: string }> {
    const response = await fetch(app.mcpUrl, { method: 'POST', headers: this.headers(session), body });
    return { status: response.status, text: await response.text() };
  }

  /** `tools/call` in a session, the answer left unread (it may become an SSE stream). */
  callTool(app: AppProcess, session: string, name: string, args: Record<string, unknown>, id: number | string): Promise<Response> {
    return fetch(app.mcpUrl, {
      method: 'POST',
      headers: this.headers(session),
      body: ReplicaCalls.rpc('tools/call', { name, arguments: args }, id),
    });
  }

  async restPost(app: AppProcess, path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    assert.ok(response.status < 300, `${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  newCustomer(app: AppProcess): Promise<Record<string, unknown>> {
    return this.restPost(app, '/v1/customers', { name: 'Replica Customer', email: `replica-${randomBytes(4).toString('hex')}@demo.test` });
  }

  /** A draft invoice of the customer: each one announces a change of `billing://customers/<id>`. */
  newInvoice(app: AppProcess, customerId: string): Promise<Record<string, unknown>> {
    return this.restPost(app, '/v1/invoices', {
      customer_id: customerId,
      currency: 'MXN',
      due_date: day(30),
      lines: [{ description: 'Consulting', quantity: 1, unit_price_minor: 10_000 }],
    });
  }
}
