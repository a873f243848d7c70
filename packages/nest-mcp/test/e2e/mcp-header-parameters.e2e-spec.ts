import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, Module } from '@nestjs/common';
import { IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import { McpHeader, McpModule, McpTool } from '@nest-mcp/core';
import type { McpCall, McpCallHook } from '@nest-mcp/core/extensions';
import { callHandshake, callStateless, callTool, post, statelessRequest, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

class QueryArgsDto {
  @McpHeader('Region')
  @IsString()
  region!: string;

  @McpHeader('Shard')
  @IsOptional()
  @IsInt()
  shard?: number;

  @McpHeader('Dry-Run')
  @IsOptional()
  @IsBoolean()
  dry_run?: boolean;

  @IsString()
  query!: string;
}

/** What ran: a refused call must run nothing. */
const ran: QueryArgsDto[] = [];
/** What the call hook saw (the audit's view): a refused call is no call. */
const hooked: string[] = [];

@Injectable()
class QueryTools {
  @McpTool({ description: 'Runs a query in a region.' })
  run_query(input: QueryArgsDto) {
    ran.push(input);
    return { region: input.region };
  }
}

@Injectable()
class RecordingHook implements McpCallHook {
  around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    if (call.target) hooked.push(call.target);
    return proceed();
  }
}

@Module({ imports: [McpModule.forRoot({ callHook: { useClass: RecordingHook } })], providers: [QueryTools] })
class HeaderApp {}

/** A 2026-07-28 `run_query` call with exactly these `Mcp-Param-*` headers (none added by the helpers). */
async function call(url: string, args: Record<string, unknown>, headers: Record<string, string>) {
  const request = statelessRequest('tools/call', { name: 'run_query', arguments: args });
  return post(url, request.body, { ...request.headers, ...headers });
}

describe('header parameters (x-mcp-header, Mcp-Param-*)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(HeaderApp);
  });
  after(() => t.close());

  it('publishes x-mcp-header on the marked properties', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/list');
    const properties = body.result.tools[0].inputSchema.properties;
    assert.equal(properties.region['x-mcp-header'], 'Region');
    assert.equal(properties.shard['x-mcp-header'], 'Shard');
    assert.equal(properties.dry_run['x-mcp-header'], 'Dry-Run');
    assert.equal(properties.query['x-mcp-header'], undefined);
  });

  it('accepts a call whose headers match its arguments, plain or Base64, names in any case', async () => {
    ran.length = 0;
    const plain = await call(
      t.mcpUrl,
      { region: 'us-west1', shard: 7, dry_run: false, query: 'q' },
      {
        'Mcp-Param-Region': 'us-west1',
        'mcp-param-shard': '7.0',
        'MCP-PARAM-DRY-RUN': 'false',
      },
    );
    assert.equal(plain.status, 200, plain.text);
    const encoded = await call(t.mcpUrl, { region: 'Hello, 世界', query: 'q' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8sIOS4lueVjA==?=' });
    assert.equal(encoded.status, 200, encoded.text);
    assert.deepEqual(
      ran.map((input) => input.region),
      ['us-west1', 'Hello, 世界'],
    );
  });

  it('refuses a mismatch, bad Base64 or a missing header with 400 / -32020, running nothing and auditing nothing', async () => {
    ran.length = 0;
    hooked.length = 0;
    const cases: Array<[Record<string, unknown>, Record<string, string>, RegExp]> = [
      [
        { region: 'us-west1', query: 'q' },
        { 'Mcp-Param-Region': 'eu-west1' },
        /Mcp-Param-Region is "eu-west1" but arguments\.region is "us-west1"/,
      ],
      [{ region: 'Hello', query: 'q' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' }, /Mcp-Param-Region has an invalid =\?base64\?/],
      [{ region: 'us-west1', query: 'q' }, {}, /Mcp-Param-Region is required and must carry arguments\.region/],
      [{ region: 'us-west1', shard: 3, query: 'q' }, { 'Mcp-Param-Region': 'us-west1', 'Mcp-Param-Shard': '4' }, /Mcp-Param-Shard is "4"/],
      [{ region: 'us-west1', query: 'q' }, { 'Mcp-Param-Region': 'us-west1', 'Mcp-Param-Dry-Run': 'true' }, /no arguments\.dry_run/],
    ];
    for (const [args, headers, message] of cases) {
      const { status, body } = await call(t.mcpUrl, args, headers);
      assert.equal(status, 400);
      assert.equal(body.error.code, -32020);
      assert.equal(body.id, 1);
      assert.match(body.error.message, message);
    }
    assert.deepEqual(ran, []);
    assert.deepEqual(hooked, []);
  });

  it('lets callTool mirror the headers as a client does, learning them from tools/list', async () => {
    ran.length = 0;
    const answer = await callTool(t.mcpUrl, 'run_query', { region: ' padded ', query: 'q' });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      ran.map((input) => input.region),
      [' padded '],
    );
  });

  it('works with the official 2.x client, which mirrors the headers itself', async () => {
    ran.length = 0;
    const sent: Array<string | null> = [];
    const spy: typeof fetch = (input, init) => {
      sent.push(new Headers(init?.headers).get('mcp-param-region'));
      return fetch(input, init);
    };
    const client = new Client({ name: 'official-client-v2', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl), { fetch: spy }));
    try {
      await client.listTools();
      const result = await client.callTool({ name: 'run_query', arguments: { region: 'Région', query: 'q' } });
      assert.ok(!result.isError, JSON.stringify(result));
    } finally {
      await client.close();
    }
    assert.ok(sent.includes('=?base64?UsOpZ2lvbg==?='), JSON.stringify(sent));
    assert.deepEqual(
      ran.map((input) => input.region),
      ['Région'],
    );
  });

  it('does not require the headers of a handshake-era client, but checks those it sends', async () => {
    ran.length = 0;
    const call2025 = (headers: Record<string, string>) =>
      post(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_query', arguments: { region: 'us-west1', query: 'q' } } },
        {
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
      );
    const without = await callHandshake(
      t.mcpUrl,
      'tools/call',
      { name: 'run_query', arguments: { region: 'us-west1', query: 'q' } },
      '2025-11-25',
    );
    assert.equal(without.status, 200, without.text);
    assert.ok(without.body.result && !without.body.result.isError, without.text);
    const mismatch = await call2025({ 'mcp-param-region': 'eu-west1' });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.code, -32020);
    assert.equal(ran.length, 1);
  });
});
