import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { iconsApp, PREFERENCES_SCHEMA, PROMPT_ICONS, RESOURCE_ICONS, runs, TOOL_ICONS } from '../fixtures/icons-and-elicitation.fixture.js';
import { post, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/**
 * Protocol revision 2025-11-25 in the handshake era, through the official clients: negotiated by
 * default, its header accepted (also on `initialize`, which is never refused for it), and what it
 * adds that a tool author uses: icons, the SEP-986 tool-name rule, elicitation defaults, enum
 * schemas and URL mode (asked through the 2026 multi round-trip, the era that carries them here).
 */
describe('protocol revision 2025-11-25', () => {
  let t: McpTestApp;
  let restricted: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(iconsApp());
    restricted = await startMcpTestApp(iconsApp({ supportedVersions: ['2025-06-18', '2025-03-26'] }));
  });
  after(async () => {
    await t?.close();
    await restricted?.close();
  });

  /** The 1.x SDK, sending `MCP-Protocol-Version: 2025-11-25` on every POST, initialize included. */
  async function sdkClient(url: string) {
    const posts: Array<{ method: string; header: string | null; status: number; version: string | null }> = [];
    const spyFetch = async (input: string | URL | Request, init: RequestInit = {}) => {
      const response = await fetch(input, init);
      if (init.method === 'POST') {
        const body = JSON.parse(String(init.body));
        posts.push({
          method: body.method,
          header: new Headers(init.headers).get('mcp-protocol-version'),
          status: response.status,
          version: response.headers.get('mcp-protocol-version'),
        });
      }
      return response;
    };
    const client = new SdkClient({ name: 'sdk-1x-2025-11-25', version: '1.32.0' });
    const transport = new SdkTransport(new URL(url), {
      fetch: spyFetch,
      requestInit: { headers: { 'mcp-protocol-version': '2025-11-25' } },
    });
    await client.connect(transport);
    return { client, transport, posts };
  }

  it('the 1.x client sending the 2025-11-25 header on initialize is answered 2025-11-25 and keeps using it', async () => {
    const { client, transport, posts } = await sdkClient(t.mcpUrl);
    try {
      assert.deepEqual(posts[0], { method: 'initialize', header: '2025-11-25', status: 200, version: '2025-11-25' });
      assert.equal(transport.protocolVersion, '2025-11-25');
      const { tools } = await client.listTools();
      assert.ok(tools.length > 0);
      assert.ok(
        posts.slice(1).every((p) => p.header === '2025-11-25' && p.version === '2025-11-25' && p.status < 300),
        JSON.stringify(posts),
      );
    } finally {
      await client.close();
    }
  });

  it('lists icons on tools, resources, resource templates and prompts', async () => {
    const { client } = await sdkClient(t.mcpUrl);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.find((tool) => tool.name === 'invoices.export')?.icons, TOOL_ICONS);
      assert.equal(tools.find((tool) => tool.name === 'purge')?.icons, undefined, 'no icons unless declared');
      const { resources } = await client.listResources();
      assert.deepEqual(resources.find((r) => r.uri === 'billing://status')?.icons, RESOURCE_ICONS);
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(resourceTemplates.find((r) => r.uriTemplate === 'billing://invoices/{id}')?.icons, RESOURCE_ICONS);
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.find((p) => p.name === 'dunning_letter')?.icons, PROMPT_ICONS);
    } finally {
      await client.close();
    }
  });

  it('a server restricted to older versions answers an initialize carrying the 2025-11-25 header with its newest version', async () => {
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    for (const header of ['2025-11-25', '2026-07-28', 'not-a-version']) {
      const { status, headers, body } = await post(
        restricted.mcpUrl,
        { jsonrpc: '2.0', id: 1, method: 'initialize', params },
        { 'mcp-protocol-version': header },
      );
      assert.equal(status, 200, `${header}: ${JSON.stringify(body)}`);
      assert.equal(body.result.protocolVersion, '2025-06-18');
      assert.equal(headers.get('mcp-protocol-version'), '2025-06-18');
    }
    // After initialization the header is checked: the version it did not negotiate is refused.
    const ping = await post(restricted.mcpUrl, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' });
    assert.equal(ping.status, 400);
    assert.equal(ping.body.error.code, -32022);
    assert.deepEqual(ping.body.error.data, { supported: ['2025-06-18', '2025-03-26'], requested: '2025-11-25' });
  });

  it('the same restricted server still connects the 1.x client (asks 2025-11-25, gets 2025-06-18)', async () => {
    const client = new SdkClient({ name: 'sdk-1x', version: '1.32.0' });
    const transport = new SdkTransport(new URL(restricted.mcpUrl));
    await client.connect(transport);
    try {
      assert.equal(transport.protocolVersion, '2025-06-18');
      await client.ping();
    } finally {
      await client.close();
    }
  });

  it('a tool name outside SEP-986 stops the application from loading, naming the method and a valid name', async () => {
    await assert.rejects(import('../fixtures/bad-tool-name.fixture.js'), (error: Error) => {
      assert.match(error.message, /@McpTool: MisnamedTools\.create: "create invoice\/v2" is not a valid name/);
      assert.match(error.message, /1–128 characters of A-Z a-z 0-9 _ - \./);
      assert.match(error.message, /e\.g\. name: "create_invoice_v2"/);
      return true;
    });
  });

  /** The 2.x client pinned to 2026-07-28, answering elicitations with `answer`. */
  async function v2Client(elicitation: { form?: Record<string, never>; url?: Record<string, never> }, answer: (params: any) => any) {
    const asked: any[] = [];
    const client = new Client(
      { name: 'client-v2', version: '2.4.0' },
      { capabilities: { elicitation }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl)));
    return { client, asked };
  }
  const textOf = (result: any) => result.content[0].text as string;

  it('a tool asks with default values and titled/untitled single- and multi-select enums, and gets the answer', async () => {
    const { client, asked } = await v2Client({ form: {} }, () => ({
      action: 'accept',
      content: { currency: 'USD', format: 'xml', channels: ['email', 'sms'], recipients: ['owner'], copies: 2, notify: false, legacy: 'b' },
    }));
    try {
      const result = await client.callTool({ name: 'export_preferences', arguments: {} });
      assert.equal(asked.length, 1);
      assert.equal(asked[0].mode ?? 'form', 'form');
      assert.deepEqual(asked[0].requestedSchema, PREFERENCES_SCHEMA, 'defaults and enum schemas reach the client untouched');
      assert.deepEqual(JSON.parse(textOf(result)), {
        currency: 'USD',
        format: 'xml',
        channels: ['email', 'sms'],
        recipients: ['owner'],
        copies: 2,
        notify: false,
        legacy: 'b',
      });
    } finally {
      await client.close();
    }
  });

  it('a tool asks for URL-mode elicitation from a client that declared it', async () => {
    const { client, asked } = await v2Client({ form: {}, url: {} }, () => ({ action: 'accept' }));
    try {
      const result = await client.callTool({ name: 'connect_bank', arguments: {} });
      assert.equal(asked[0].mode, 'url');
      assert.equal(asked[0].url, 'https://bank.example.com/authorize?state=s1');
      assert.equal(textOf(result), 'bank: accept');
    } finally {
      await client.close();
    }
  });

  it('URL-mode elicitation to a client that declared only form is refused with -32021 naming url', async () => {
    const { client } = await v2Client({ form: {} }, () => ({ action: 'accept' }));
    try {
      await assert.rejects(client.callTool({ name: 'connect_bank', arguments: {} }), (error: any) => {
        assert.equal(error.code, -32021);
        assert.deepEqual(error.data, { requiredCapabilities: { elicitation: { url: {} } } });
        return true;
      });
    } finally {
      await client.close();
    }
  });

  it('a destructive tool is still confirmed in the chat by a client declaring form and URL elicitation', async () => {
    runs.length = 0;
    const { client, asked } = await v2Client({ form: {}, url: {} }, (params) => ({
      action: 'accept',
      content: { [params.requestedSchema.required[0]]: true },
    }));
    try {
      const result = await client.callTool({ name: 'purge', arguments: {} });
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /Purge drafts/);
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.deepEqual(runs, ['purge']);
    } finally {
      await client.close();
    }
  });
});
