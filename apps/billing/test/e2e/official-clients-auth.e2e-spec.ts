/** The official clients against the real application: bearer tokens, the 401 challenge, scopes. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

const info = { name: 'auth-e2e', version: '1.0.0' };

function sdkClient(t: BillingTestApp, headers: Record<string, string>) {
  const client = new SdkClient(info);
  const transport = new SdkTransport(new URL(t.mcpUrl), { requestInit: { headers } });
  return { client, connect: () => client.connect(transport) };
}

function pinnedClient(t: BillingTestApp, headers: Record<string, string>) {
  const client = new Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers } });
  return { client, connect: () => client.connect(transport) };
}

describe('official clients with bearer tokens (real database)', () => {
  let t: BillingTestApp;
  before(async () => {
    t = await startBillingApp();
  });
  after(() => t.close());

  for (const [label, make] of [
    ['@modelcontextprotocol/sdk 1.x (2025 era)', sdkClient],
    ['@modelcontextprotocol/client 2.x pinned to 2026-07-28', pinnedClient],
  ] as const) {
    describe(label, () => {
      it('connects with a bearer token, lists what the token allows and calls a write tool', async () => {
        const { client, connect } = make(
          t,
          bearer(await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] })),
        );
        await connect();
        try {
          const { tools } = await client.listTools();
          assert.ok(tools.some((tool) => tool.name === 'billing_customer_create'));
          const result = await client.callTool({
            name: 'billing_customer_create',
            arguments: { name: `Client ${label}`, email: `${label.length}-${Date.now()}@clients.test` },
          });
          assert.equal(result.isError, undefined);
          assert.equal((result.structuredContent as { data: { created_via: string } }).data.created_via, 'mcp');
        } finally {
          await client.close();
        }
      });

      it('hides write tools from a read-only token', async () => {
        const { client, connect } = make(t, bearer(await t.token({ scopes: ['billing:read'] })));
        await connect();
        try {
          const { tools } = await client.listTools();
          assert.ok(!tools.some((tool) => tool.name === 'billing_customer_create'));
        } finally {
          await client.close();
        }
      });

      it('fails to connect without a token, on the 401 challenge', async () => {
        const { connect } = make(t, {});
        await assert.rejects(connect(), (error: Error) => {
          assert.match(String(error), /401|Unauthorized|Authentication required/i);
          return true;
        });
      });
    });
  }
});
