import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Implementation } from '@modelcontextprotocol/server';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { InMemoryClientInfoStore, MCP_CLIENT_INFO_STORE, type McpClientInfoStore } from '@nest-mcp/core/extensions';
import { callTool, envelopeOf, post, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { ordersApp, OrdersFixtureModule } from '../fixtures/orders.fixture.js';

/**
 * Stateless mode (the default), handshake era: a 2025 client names itself in `initialize` only,
 * and its later requests carry no session. The layer remembers the name per caller (`callerKey`,
 * by default a hash of the credentials) through the `clientInfoStore` extension point, so the
 * tool, the call hook and the audit see it on every later request, on whichever replica answers.
 */

const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

const bearer = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

async function initialize(url: string, token: string | undefined, clientInfo: Implementation, protocolVersion = '2025-11-25') {
  const { status, body } = await post(
    url,
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo } },
    bearer(token),
  );
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.result.protocolVersion, protocolVersion);
}

/** A handshake-era `tools/call` of `echo` without a session: the client name the tool saw (null: none). */
async function echoClient(url: string, token: string | undefined, version = '2025-11-25'): Promise<string | null> {
  const { status, body } = await post(
    url,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
    { 'mcp-protocol-version': version, ...bearer(token) },
  );
  assert.equal(status, 200, JSON.stringify(body));
  const envelope = envelopeOf(body);
  assert.equal(envelope.data.era, 'handshake');
  return envelope.data.client;
}

/** A shared store (what a database gives several replicas), counting what the layer asks of it. */
class CountingStore implements McpClientInfoStore {
  readonly inner = new InMemoryClientInfoStore();
  remembers = 0;
  recalls = 0;
  failing = false;
  async remember(callerKey: string, info: Implementation): Promise<void> {
    this.remembers += 1;
    if (this.failing) throw new Error('store down');
    await this.inner.remember(callerKey, info);
  }
  async recall(callerKey: string): Promise<Implementation | undefined> {
    this.recalls += 1;
    if (this.failing) throw new Error('store down');
    return this.inner.recall(callerKey);
  }
}

/** One replica of the orders app, its client infos in `store`. */
function replica(store: McpClientInfoStore) {
  @Module({
    imports: [McpModule.forRoot({ serverInfo: { name: 'orders-fixture' }, clientInfoStore: { useValue: store } }), OrdersFixtureModule],
  })
  class Replica {}
  return Replica;
}

describe('stateless mode: the client a handshake-era initialize named, for the later requests of that caller', () => {
  describe('one replica, the default store', () => {
    let t: McpTestApp;
    before(async () => {
      t = await startMcpTestApp(ordersApp());
    });
    after(() => t?.close());

    it('fills the extension point with the in-memory default', () => {
      assert.ok(t.app.get(MCP_CLIENT_INFO_STORE) instanceof InMemoryClientInfoStore);
    });

    it('the official 1.x client: its tools/call reaches the tool with the name it gave in initialize', async () => {
      const client = new SdkClient({ name: 'Acme Desk', version: '4.2.0' });
      await client.connect(new SdkTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer('token-acme') } }));
      try {
        const result = (await client.callTool({ name: 'echo', arguments: { text: 'hola' } })) as { content: Array<{ text: string }> };
        assert.deepEqual(JSON.parse(result.content[0].text).data, { text: 'hola', era: 'handshake', client: 'Acme Desk' });
      } finally {
        await client.close();
      }
    });

    it('each caller gets its own client, in every handshake version; a caller that never named one gets none', async () => {
      await initialize(t.mcpUrl, 'token-alice', { name: 'Alice Desk', version: '1.0.0' }, '2025-06-18');
      assert.equal(await echoClient(t.mcpUrl, 'token-alice', '2025-06-18'), 'Alice Desk');
      assert.equal(await echoClient(t.mcpUrl, 'token-alice', '2025-03-26'), 'Alice Desk');
      assert.equal(await echoClient(t.mcpUrl, 'token-bob'), null, "another caller never gets the first caller's client");

      await initialize(t.mcpUrl, 'token-bob', { name: 'Bob Desk', version: '2.0.0' });
      assert.equal(await echoClient(t.mcpUrl, 'token-bob'), 'Bob Desk');
      assert.equal(await echoClient(t.mcpUrl, 'token-alice'), 'Alice Desk');

      // A new initialize of the same caller replaces the name.
      await initialize(t.mcpUrl, 'token-alice', { name: 'Alice Desk Next', version: '1.1.0' });
      assert.equal(await echoClient(t.mcpUrl, 'token-alice'), 'Alice Desk Next');
    });

    it('a caller without credentials is not remembered (anonymous callers cannot be told apart)', async () => {
      await initialize(t.mcpUrl, undefined, { name: 'Anonymous Desk', version: '1' });
      assert.equal(await echoClient(t.mcpUrl, undefined), null);
    });

    it('a 2026-07-28 request keeps the clientInfo of its own envelope', async () => {
      await initialize(t.mcpUrl, 'token-carol', { name: 'Carol 2025', version: '1' });
      const { envelope } = await callTool(
        t.mcpUrl,
        'echo',
        { text: 'x' },
        { token: 'token-carol', clientInfo: { name: 'Carol 2026', version: '2' } },
      );
      assert.deepEqual(envelope.data, { text: 'x', era: 'stateless', client: 'Carol 2026' });
    });
  });

  describe('two replicas sharing a store', () => {
    const store = new CountingStore();
    let a: McpTestApp;
    let b: McpTestApp;
    before(async () => {
      a = await startMcpTestApp(replica(store));
      b = await startMcpTestApp(replica(store));
    });
    after(async () => {
      await a?.close();
      await b?.close();
    });

    it('initialize on one replica, tools/call on the other: the name is there; the replica asks the store once, not per request', async () => {
      await initialize(a.mcpUrl, 'token-dave', { name: 'Dave Desk', version: '3' });
      assert.equal(store.remembers, 1);
      const recalls = store.recalls;
      for (let i = 0; i < 3; i++) assert.equal(await echoClient(b.mcpUrl, 'token-dave'), 'Dave Desk');
      assert.equal(store.recalls, recalls + 1, 'cached by the replica after the first recall');
      assert.equal(await echoClient(a.mcpUrl, 'token-dave'), 'Dave Desk');
      assert.equal(store.recalls, recalls + 1, 'the replica that was told needs no recall');
    });

    it('2026-07-28 requests, initialize and ping never ask the store', async () => {
      const recalls = store.recalls;
      await callTool(b.mcpUrl, 'echo', { text: 'x' }, { token: 'token-erin' });
      const unnamed = await callTool(b.mcpUrl, 'echo', { text: 'x' }, { token: 'token-erin', meta: { [CLIENT_INFO_KEY]: undefined } });
      assert.equal(unnamed.envelope.data.client, null, 'a 2026 request without clientInfo has none');
      await initialize(b.mcpUrl, 'token-erin', { name: 'Erin Desk', version: '1' });
      await post(b.mcpUrl, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25', ...bearer('token-frank') });
      assert.equal(store.recalls, recalls);
    });

    it('a failing store leaves the request without a client name, not failed; a failed recall is not kept', async () => {
      store.failing = true;
      try {
        await initialize(a.mcpUrl, 'token-gina', { name: 'Gina Desk', version: '1' });
        assert.equal(await echoClient(a.mcpUrl, 'token-gina'), 'Gina Desk', 'the replica that was told still knows');
        assert.equal(await echoClient(b.mcpUrl, 'token-gina'), null);
      } finally {
        store.failing = false;
      }
      await initialize(a.mcpUrl, 'token-gina', { name: 'Gina Desk', version: '1' });
      assert.equal(await echoClient(b.mcpUrl, 'token-gina'), 'Gina Desk', 'the next request asks the store again');
    });
  });
});
