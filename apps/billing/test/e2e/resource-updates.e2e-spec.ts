import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpResourceUpdates } from '@nest-mcp/core';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';
import { post, statelessRequest } from '@nest-mcp/core/testing';

/**
 * Billing writes announce the resources they changed to the MCP layer (McpResourceUpdates.changed),
 * once committed: what stream mode turns into notifications/resources/updated for subscribed sessions.
 */
describe('resource-updated announcements of billing writes', () => {
  let t: BillingTestApp;
  let token: string;
  const heard: string[] = [];
  before(async () => {
    t = await withEnv({ MCP_STREAMS: 'true' }, () => startBillingApp());
    token = await t.token();
    // The publisher holds this same instance: what it announces is heard here.
    const updates = t.app.get(McpResourceUpdates);
    const changed = updates.changed.bind(updates);
    updates.changed = async (uri: string) => {
      heard.push(uri);
      await changed(uri);
    };
  });
  after(async () => {
    await t?.close();
  });

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  const createCustomer = (email: string) =>
    fetch(`${t.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ name: 'Acme', email }),
    });

  it('a REST write announces billing://customers/{id} after it commits', async () => {
    const response = await createCustomer(`a-${Date.now()}@acme.example`);
    assert.equal(response.status, 201);
    const { id } = (await response.json()) as { id: string };
    await until(() => heard.includes(`billing://customers/${id}`));
    assert.ok(heard.includes(`billing://customers/${id}`), JSON.stringify(heard));
  });

  it('an invoice created in a transaction announces the invoice and its customer once committed', async () => {
    const customer = (await (await createCustomer(`inv-${Date.now()}@acme.example`)).json()) as { id: string };
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const response = await fetch(`${t.baseUrl}/v1/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({
        customer_id: customer.id,
        currency: 'MXN',
        issue_date: day(-1),
        due_date: day(29),
        lines: [{ description: 'Consulting', quantity: 1, unit_price_minor: 100_000 }],
      }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    const { id } = (await response.json()) as { id: string };
    await until(() => heard.includes(`billing://invoices/${id}`));
    assert.ok(heard.includes(`billing://invoices/${id}`), JSON.stringify(heard));
    assert.ok(heard.includes(`billing://customers/${customer.id}`));
  });

  it('an MCP tool call (its write and audit row in one transaction) announces once committed', async () => {
    const request = statelessRequest('tools/call', {
      name: 'billing_customer_create',
      arguments: { name: 'Via MCP', email: `mcp-${Date.now()}@acme.example` },
    });
    const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
    const id = body.result?.structuredContent?.data?.id as string;
    assert.ok(id, JSON.stringify(body));
    await until(() => heard.includes(`billing://customers/${id}`));
    assert.ok(heard.includes(`billing://customers/${id}`), JSON.stringify(heard));
  });

  it('a write refused by the database (duplicate email) announces nothing', async () => {
    const email = `dup-${Date.now()}@acme.example`;
    const first = await createCustomer(email);
    assert.equal(first.status, 201);
    const { id } = (await first.json()) as { id: string };
    await until(() => heard.includes(`billing://customers/${id}`));
    heard.length = 0;
    const second = await createCustomer(email);
    assert.equal(second.status, 409);
    // A later write's announcement arrives: everything before it has been delivered.
    const marker = (await (await createCustomer(`m-${Date.now()}@acme.example`)).json()) as { id: string };
    await until(() => heard.includes(`billing://customers/${marker.id}`));
    assert.deepEqual(heard, [`billing://customers/${marker.id}`]);
  });
});
