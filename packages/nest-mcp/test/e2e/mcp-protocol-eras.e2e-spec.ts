import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ordersApp } from '../fixtures/orders.fixture.js';
import {
  callHandshake,
  callStateless,
  envelope,
  envelopeOf,
  post,
  statelessRequest,
  startMcpTestApp,
  type McpTestApp,
} from '@nest-mcp/core/testing';

const SERVER_INFO = { name: 'orders-fixture', title: 'orders-fixture', version: '1.0.0' };
const SUPPORTED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

describe('protocol eras and versions (docs/contract.md §2)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ordersApp({ pageSize: 2 }));
  });
  after(() => t.close());

  describe('2026-07-28 (stateless)', () => {
    it('server/discover answers versions, capabilities, instructions, cache hints and serverInfo', async () => {
      const { status, headers, body } = await callStateless(t.mcpUrl, 'server/discover');
      assert.equal(status, 200);
      assert.equal(headers.get('mcp-protocol-version'), '2026-07-28');
      assert.equal(headers.get('cache-control'), 'no-store');
      const result = body.result;
      assert.equal(result.resultType, 'complete');
      assert.deepEqual(result.supportedVersions, SUPPORTED);
      assert.deepEqual(result.capabilities, { tools: {}, resources: {}, prompts: {}, completions: {} });
      assert.match(result.instructions, /third parties/);
      assert.match(result.instructions, /confirmation/);
      assert.equal(result.ttlMs, 0);
      assert.equal(result.cacheScope, 'private');
      assert.deepEqual(result._meta, { 'io.modelcontextprotocol/serverInfo': SERVER_INFO });
    });

    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      it(`${method} carries resultType, ttlMs 0, cacheScope private and serverInfo`, async () => {
        const { body } = await callStateless(t.mcpUrl, method);
        assert.equal(body.result.resultType, 'complete');
        assert.equal(body.result.ttlMs, 0);
        assert.equal(body.result.cacheScope, 'private');
        assert.deepEqual(body.result._meta['io.modelcontextprotocol/serverInfo'], SERVER_INFO);
      });
    }

    it('tools/call results carry resultType and serverInfo but no cache hints', async () => {
      const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'echo', arguments: { text: 'a' } });
      assert.equal(body.result.resultType, 'complete');
      assert.equal(body.result.ttlMs, undefined);
      assert.deepEqual(body.result._meta['io.modelcontextprotocol/serverInfo'], SERVER_INFO);
    });

    for (const method of ['initialize', 'ping', 'logging/setLevel', 'no/such/method']) {
      it(`answers ${method} with HTTP 404 and -32601`, async () => {
        const { status, body } = await callStateless(t.mcpUrl, method, {}, { id: 'req-7' });
        assert.equal(status, 404);
        assert.equal(body.error.code, -32601);
        assert.equal(body.id, 'req-7');
      });
    }

    it('refuses an unsupported version with 400, -32022 and the supported list', async () => {
      const request = statelessRequest('tools/list');
      request.body.params._meta['io.modelcontextprotocol/protocolVersion'] = '1999-01-01';
      const { status, body } = await post(t.mcpUrl, request.body, { ...request.headers, 'mcp-protocol-version': '1999-01-01' });
      assert.equal(status, 400);
      assert.deepEqual(body.error, {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: SUPPORTED, requested: '1999-01-01' },
      });
      assert.equal(body.id, 1);
    });

    it('refuses the 2026 header without the envelope with 400 / -32602', async () => {
      const { status, body } = await post(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
        {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
      );
      assert.equal(status, 400);
      assert.equal(body.error.code, -32602);
      assert.equal(body.id, 3);
    });

    it('refuses a missing clientCapabilities with 400 / -32602', async () => {
      const { status, body } = await post(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      );
      assert.equal(status, 400);
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, /clientCapabilities/);
    });

    const mismatches: Array<[string, Record<string, string | undefined>]> = [
      ['a missing Mcp-Method', { 'mcp-method': undefined }],
      ['a different Mcp-Method', { 'mcp-method': 'tools/list' }],
      ['a missing Mcp-Name on tools/call', { 'mcp-name': undefined }],
      ['a different Mcp-Name', { 'mcp-name': 'orders_get' }],
      ['a different MCP-Protocol-Version', { 'mcp-protocol-version': '2025-06-18' }],
    ];
    for (const [label, override] of mismatches) {
      it(`answers ${label} with 400 / -32020 Header mismatch`, async () => {
        const request = statelessRequest('tools/call', { name: 'echo', arguments: { text: 'a' } });
        const headers = Object.fromEntries(
          Object.entries({ ...request.headers, ...override }).filter(([, v]) => v !== undefined),
        ) as Record<string, string>;
        const { status, body } = await post(t.mcpUrl, request.body, headers);
        assert.equal(status, 400);
        assert.equal(body.error.code, -32020);
        assert.match(body.error.message, /^Header mismatch: /);
      });
    }

    it('accepts a base64 Mcp-Name for a name headers cannot carry raw', async () => {
      const request = statelessRequest('tools/call', { name: 'echo', arguments: { text: 'ñ' } });
      const { status, body } = await post(t.mcpUrl, request.body, {
        ...request.headers,
        'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=`,
      });
      assert.equal(status, 200);
      assert.equal(envelopeOf(body).data.text, 'ñ');
    });

    it('pages lists with an opaque cursor, deterministically sorted', async () => {
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const { body } = await callStateless(t.mcpUrl, 'tools/list', cursor ? { cursor } : {});
        names.push(...body.result.tools.map((tool: { name: string }) => tool.name));
        cursor = body.result.nextCursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(names, ['echo', 'explode', 'orders_create', 'orders_get', 'raw_content']);
    });

    it('refuses a forged cursor with -32602', async () => {
      const { body } = await callStateless(t.mcpUrl, 'tools/list', { cursor: 'not-ours' });
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, /Invalid cursor/);
    });
  });

  describe('2025 (handshake)', () => {
    it('initialize negotiates: a known handshake version is echoed', async () => {
      const { headers, body } = await post(t.mcpUrl, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      assert.equal(body.result.protocolVersion, '2025-03-26');
      assert.equal(headers.get('mcp-protocol-version'), '2025-03-26');
    });

    it('initialize asking 2025-11-25 is answered 2025-11-25, with or without the header', async () => {
      for (const headers of [{}, { 'mcp-protocol-version': '2025-11-25' }] as Array<Record<string, string>>) {
        const {
          status,
          headers: answerHeaders,
          body,
        } = await post(
          t.mcpUrl,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
          },
          headers,
        );
        assert.equal(status, 200);
        assert.equal(body.result.protocolVersion, '2025-11-25');
        assert.equal(answerHeaders.get('mcp-protocol-version'), '2025-11-25');
      }
    });

    for (const asked of ['2026-07-28', '1999-01-01']) {
      it(`initialize asking ${asked} gets the newest handshake version (2025-11-25) with the full capability set`, async () => {
        const { status, headers, body } = await post(t.mcpUrl, {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        });
        assert.equal(status, 200);
        assert.equal(headers.get('mcp-protocol-version'), '2025-11-25');
        assert.deepEqual(body.result, {
          protocolVersion: '2025-11-25',
          capabilities: {
            tools: { listChanged: false },
            resources: { subscribe: false, listChanged: false },
            prompts: { listChanged: false },
            completions: {},
          },
          serverInfo: SERVER_INFO,
          instructions: body.result.instructions,
        });
        assert.match(body.result.instructions, /never follow instructions/);
      });
    }

    it('ping answers {}', async () => {
      const { body } = await callHandshake(t.mcpUrl, 'ping');
      assert.deepEqual(body, { jsonrpc: '2.0', id: 1, result: {} });
    });

    for (const method of ['server/discover', 'no/such/method']) {
      it(`answers ${method} with -32601 inside a 200`, async () => {
        const { status, body } = await callHandshake(t.mcpUrl, method);
        assert.equal(status, 200);
        assert.equal(body.error.code, -32601);
      });
    }

    it('adds no 2026 fields to results', async () => {
      const { body } = await callHandshake(t.mcpUrl, 'tools/list');
      assert.equal(body.result.resultType, undefined);
      assert.equal(body.result.ttlMs, undefined);
      assert.equal(body.result._meta, undefined);
    });

    it('refuses an unsupported MCP-Protocol-Version header with 400 / -32022', async () => {
      const { status, body } = await callHandshake(t.mcpUrl, 'tools/list', {}, '2024-11-05');
      assert.equal(status, 400);
      assert.equal(body.error.code, -32022);
      assert.equal(body.error.data.requested, '2024-11-05');
    });

    it('treats a request without the header as 2025-03-26', async () => {
      const { headers } = await post(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      assert.equal(headers.get('mcp-protocol-version'), '2025-03-26');
    });
  });

  it('uses the envelope, not the client, to decide: an envelope with 2025 capabilities still needs its headers', async () => {
    const body = { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: envelope() } };
    const { status, body: answer } = await post(t.mcpUrl, body);
    assert.equal(status, 400);
    assert.equal(answer.error.code, -32020);
  });
});
