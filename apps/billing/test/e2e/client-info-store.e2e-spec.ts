import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MCP_CLIENT_INFO_STORE, type McpClientInfoStore } from '@nest-mcp/core/extensions';
import { post } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { ExpiredRowsCleanup, PrismaClientInfoStore } from '@nest-mcp/prisma';

/**
 * The layer's `clientInfoStore` in Postgres (`mcp_client_infos`): what a 2025-era client named
 * itself in a stateless `initialize`, one row per caller, read by every replica; rows of callers
 * that have not initialized for 30 days go with the periodic cleanup.
 */
describe('PrismaClientInfoStore (2025-era client names, stateless mode)', () => {
  let t: BillingTestApp;
  let store: McpClientInfoStore;
  before(async () => {
    t = await startBillingApp();
    store = t.app.get(MCP_CLIENT_INFO_STORE);
  });
  after(() => t?.close());

  it('is the provider of MCP_CLIENT_INFO_STORE', () => {
    assert.ok(store instanceof PrismaClientInfoStore);
  });

  it('keeps one row per caller, replaced by each remember; an unknown caller has none', async () => {
    const caller = `caller-${randomUUID()}`;
    assert.equal(await store.recall(caller), undefined);
    await store.remember(caller, { name: 'Acme Desk', version: '1.0.0' });
    assert.deepEqual(await store.recall(caller), { name: 'Acme Desk', version: '1.0.0' });
    await Promise.all([
      store.remember(caller, { name: 'Acme Desk', version: '1.1.0' }),
      store.remember(caller, { name: 'Acme Desk', version: '1.1.0' }),
    ]);
    assert.deepEqual(await store.recall(caller), { name: 'Acme Desk', version: '1.1.0' });
    await store.remember(caller, { name: 'No Version' } as never);
    assert.deepEqual(await store.recall(caller), { name: 'No Version' });
    assert.equal(await t.prisma.client.mcpClientInfo.count({ where: { callerKey: caller } }), 1);
  });

  it("a 2025 initialize writes the row under the caller's key (user and token), through the layer", async () => {
    const token = await t.token({ label: 'client info' });
    const { status } = await post(
      t.mcpUrl,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Init Desk', version: '9' } },
      },
      bearer(token),
    );
    assert.equal(status, 200);
    const rows = await t.prisma.client.mcpClientInfo.findMany({ where: { name: 'Init Desk' } });
    assert.equal(rows.length, 1);
    assert.match(rows[0].callerKey, /^[0-9a-f-]{36}:/, 'user id:token id, never the token');
    assert.equal(rows[0].version, '9');
  });

  it('the cleanup deletes the rows of callers that have not initialized for 30 days, and nothing else', async () => {
    const [stale, recent] = [`stale-${randomUUID()}`, `recent-${randomUUID()}`];
    await t.prisma.client.$executeRaw`
      INSERT INTO mcp_client_infos (caller_key, name, updated_at)
      VALUES (${stale}, 'Old Desk', (now() AT TIME ZONE 'UTC') - interval '30 days 1 minute'),
             (${recent}, 'New Desk', (now() AT TIME ZONE 'UTC') - interval '29 days')`;
    assert.ok((await t.app.get(ExpiredRowsCleanup).run()) >= 1);
    assert.deepEqual(
      (await t.prisma.client.mcpClientInfo.findMany({ where: { callerKey: { in: [stale, recent] } } })).map((row) => row.callerKey),
      [recent],
    );
  });
});
