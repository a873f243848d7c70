/**
 * Stream mode across replicas: two applications that share their stream backends (here the
 * in-process ones, handed to both under the tokens, standing in for Postgres/Redis): a session
 * opened on A is served by B, a client's answer POSTed to B reaches the tool waiting on A, and a
 * resource change announced on B reaches a GET stream held by A.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpResourceUpdates } from '@nest-mcp/core';
import { InMemoryEventStore, InMemorySessionStore, InProcessMessageBus } from '@nest-mcp/core/extensions';
import { streamsApp } from '../fixtures/streams.fixture.js';
import { startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

describe('stream mode on two replicas', () => {
  let a: McpTestApp;
  let b: McpTestApp;
  /** Which replica served each POST, by JSON-RPC kind. */
  const served: Array<{ replica: 'A' | 'B'; kind: string }> = [];

  before(async () => {
    const shared = { sessions: new InMemorySessionStore(), events: new InMemoryEventStore(), bus: new InProcessMessageBus() };
    a = await startMcpTestApp(streamsApp({}, shared));
    b = await startMcpTestApp(streamsApp({}, shared));
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  /** A load balancer in the client: answers to server→client requests go to B, everything else to A. */
  const balancer = async (url: string | URL, init: RequestInit = {}) => {
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const isAnswer = body && !('method' in body);
    const target = isAnswer ? b.mcpUrl : a.mcpUrl;
    served.push({ replica: isAnswer ? 'B' : 'A', kind: body ? (body.method ?? 'answer') : (init.method ?? 'GET') });
    return fetch(String(url).replace(a.mcpUrl, target), init);
  };

  it('an elicitation asked on A is answered through B', async () => {
    const client = new SdkClient({ name: 'replicas', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Lin' } }));
    await client.connect(new SdkTransport(new URL(a.mcpUrl), { fetch: balancer }));
    try {
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      assert.deepEqual((result.content as any[])[0], { type: 'text', text: 'Hello Lin' });
      assert.ok(
        served.some((s) => s.replica === 'B' && s.kind === 'answer'),
        'the answer went to B',
      );
    } finally {
      await client.close();
    }
  });

  it('a session opened on A is served on B, and a change announced on B reaches the GET stream on A', async () => {
    const client = new SdkClient({ name: 'replicas', version: '1.0.0' });
    const transport = new SdkTransport(new URL(a.mcpUrl));
    await client.connect(transport);
    try {
      const sessionId = transport.sessionId!;
      const onB = await fetch(b.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': transport.protocolVersion!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'demo://status' } }),
      });
      assert.equal(onB.status, 200, 'B knows the session A created');
      const updated = new Promise<string>((resolve) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
      );
      const announcer = b.app.get(McpResourceUpdates);
      const timer = setInterval(() => void announcer.changed('demo://status'), 100);
      try {
        assert.equal(await updated, 'demo://status');
      } finally {
        clearInterval(timer);
      }
    } finally {
      await client.close();
    }
  });
});
