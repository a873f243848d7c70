/**
 * Stream mode (`McpModule.forRoot({ streams: true })`) with the OFFICIAL clients: the 1.x SDK in
 * the handshake era (sessions, SSE answers, elicitation over the stream, GET stream with resource
 * updates) and the 2.x client in 2026-07-28 (progress on the POST's SSE answer, elicitation as a
 * multi round-trip), plus the wire rules checked by hand.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpResourceUpdates, McpTool } from '@nest-mcp/core';
import type { McpCall, McpCallHook } from '@nest-mcp/core/extensions';
import { abortReasons, hookLog, streamsApp, wipes } from '../fixtures/streams.fixture.js';
import { parseSse, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

const HANDSHAKE = '2025-06-18';
const BOTH = 'application/json, text/event-stream';

/** A 1.x SDK client (handshake era), connected, optionally answering elicitations. */
async function sdkClient(url: string, options: { elicit?: (params: any) => any; headers?: Record<string, string> } = {}) {
  const client = new SdkClient({ name: 'sdk-streams', version: '1.0.0' }, { capabilities: options.elicit ? { elicitation: {} } : {} });
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => options.elicit!(request.params));
  const transport = new SdkTransport(new URL(url), { requestInit: { headers: options.headers ?? {} } });
  await client.connect(transport);
  return { client, transport };
}

/** Raw POST; the answer's SSE events parsed (or its JSON body). */
async function rawPost(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': HANDSHAKE, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const isSse = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  return {
    status: response.status,
    headers: response.headers,
    isSse,
    events: isSse ? parseSse(text) : [],
    json: !isSse && text ? JSON.parse(text) : undefined,
  };
}

/** `initialize` by hand: the session id. */
async function openSession(url: string, headers: Record<string, string> = {}, capabilities: Record<string, unknown> = {}) {
  const answer = await rawPost(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: HANDSHAKE, capabilities, clientInfo: { name: 'raw', version: '1' } },
    },
    headers,
  );
  assert.equal(answer.status, 200);
  const session = answer.headers.get('mcp-session-id');
  assert.ok(session, 'initialize issues Mcp-Session-Id');
  return session;
}

/** Waits (bounded) until `check` holds. */
async function eventually(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(check());
}

/** Starts `wait_for_abort` on an SSE answer and returns once it runs (its progress event arrived). */
async function startWaiting(url: string, session: string, id: number) {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': HANDSHAKE, 'mcp-session-id': session },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'wait_for_abort', arguments: {}, _meta: { progressToken: 1 } },
    }),
    signal: controller.signal,
  });
  await response.body!.getReader().read();
  return controller;
}

const callCount = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'count', arguments: {}, _meta: { progressToken: `p${id}` } },
});

describe('stream mode', () => {
  let t: McpTestApp;

  before(async () => {
    t = await startMcpTestApp(streamsApp());
  });
  after(async () => {
    await t?.close();
  });

  describe('handshake era, official 1.x client', () => {
    it('refuses to subscribe to a resource URI over 8192 characters with -32602 (nothing stored for the session)', async () => {
      const { client } = await sdkClient(t.mcpUrl);
      try {
        const uri = `demo://status/${'z'.repeat(50_000)}`;
        await assert.rejects(client.subscribeResource({ uri }), (error: { code?: number; message: string }) => {
          assert.equal(error.code, -32602);
          assert.match(error.message, /"uri" is 50014 characters long; a resource URI has at most 8192/);
          return true;
        });
      } finally {
        await client.close();
      }
    });

    it('initialize declares logging and subscriptions; progress callbacks fire and log messages arrive', async () => {
      const { client } = await sdkClient(t.mcpUrl);
      try {
        const capabilities = client.getServerCapabilities();
        assert.deepEqual(capabilities?.logging, {});
        assert.equal(capabilities?.resources?.subscribe, true);
        assert.equal(capabilities?.tools?.listChanged, false, 'the tool list never changes at run time');
        const logs: any[] = [];
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
        await client.setLoggingLevel('warning');
        const progress: any[] = [];
        const result = await client.callTool({ name: 'count', arguments: {} }, CallToolResultSchema, {
          onprogress: (p) => void progress.push(p),
        });
        assert.deepEqual((result.content as any[])[0], { type: 'text', text: 'counted' });
        assert.deepEqual(
          progress,
          [1, 2, 3].map((n) => ({ progress: n, total: 3, message: `step ${n}` })),
        );
        assert.deepEqual(logs, [{ level: 'warning', data: { step: 2 }, logger: 'counter' }], 'only levels at or above the session level');
      } finally {
        await client.close();
      }
    });

    it('an elicitation goes out on the call stream and its answer (a new POST) reaches the waiting tool', async () => {
      const asked: any[] = [];
      const { client } = await sdkClient(t.mcpUrl, {
        elicit: (params) => (asked.push(params), { action: 'accept', content: { name: 'Ada' } }),
      });
      try {
        const result = await client.callTool({ name: 'ask_name', arguments: {} });
        assert.equal(asked[0].message, 'Your name?');
        assert.deepEqual((result.content as any[])[0], { type: 'text', text: 'Hello Ada' });
      } finally {
        await client.close();
      }
    });

    it('a destructive tool is confirmed in the chat over the stream, and the session names the client', async () => {
      const before = wipes.length;
      const { client } = await sdkClient(t.mcpUrl, { elicit: () => ({ action: 'accept', content: { confirm: true } }) });
      try {
        const result = await client.callTool({ name: 'wipe', arguments: {} });
        assert.deepEqual((result.content as any[])[0], { type: 'text', text: 'wiped' });
        assert.deepEqual(wipes.slice(before), ['sdk-streams']);
      } finally {
        await client.close();
      }
      const { client: declining } = await sdkClient(t.mcpUrl, { elicit: () => ({ action: 'decline' }) });
      try {
        const result = await declining.callTool({ name: 'wipe', arguments: {} });
        assert.equal(result.isError, true);
        assert.match(JSON.stringify(result.content), /confirmation_declined/);
        assert.equal(wipes.length, before + 1, 'a declined confirmation runs nothing');
      } finally {
        await declining.close();
      }
    });

    it('a subscribed session gets notifications/resources/updated on its GET stream; after unsubscribe it does not', async () => {
      const { client } = await sdkClient(t.mcpUrl);
      try {
        let resolveUpdate!: (uri: string) => void;
        let updates = 0;
        const updated = new Promise<string>((resolve) => (resolveUpdate = resolve));
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
          updates++;
          resolveUpdate(n.params.uri);
        });
        await client.subscribeResource({ uri: 'demo://status' });
        const announcer = t.app.get(McpResourceUpdates);
        // The client opens its GET stream in the background: announce until it is there.
        const timer = setInterval(() => void announcer.changed('demo://status'), 100);
        try {
          assert.equal(await updated, 'demo://status');
        } finally {
          clearInterval(timer);
        }
        await client.unsubscribeResource({ uri: 'demo://status' });
        const seen = updates;
        await announcer.changed('demo://status');
        await client.ping(); // a round trip after the announcement
        assert.equal(updates, seen);
      } finally {
        await client.close();
      }
    });
  });

  describe('2026-07-28, official 2.x client', () => {
    it('progress callbacks fire on the SSE answer, and elicit() becomes a multi round-trip', async () => {
      const client = new Client(
        { name: 'v2-streams', version: '2.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl)));
      try {
        const progress: any[] = [];
        const counted = await client.callTool({ name: 'count', arguments: {} }, { onprogress: (p: any) => void progress.push(p.progress) });
        assert.deepEqual((counted.content as any[])[0], { type: 'text', text: 'counted' });
        assert.deepEqual(progress, [1, 2, 3]);
        const named = await client.callTool({ name: 'ask_name', arguments: {} });
        assert.deepEqual((named.content as any[])[0], { type: 'text', text: 'Hello Grace' });
      } finally {
        await client.close();
      }
    });
  });

  describe('wire rules', () => {
    it('a client that accepts only JSON gets plain JSON, notifications dropped', async () => {
      const session = await openSession(t.mcpUrl);
      const answer = await rawPost(t.mcpUrl, callCount(1), { 'mcp-session-id': session, accept: 'application/json' });
      assert.equal(answer.status, 200);
      assert.equal(answer.isSse, false);
      assert.deepEqual(answer.json.result.content[0], { type: 'text', text: 'counted' });
    });

    it('requests without, with an unknown, or with another caller’s session id are refused; DELETE ends a session', async () => {
      const noSession = await rawPost(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' });
      assert.equal(noSession.status, 400);
      const unknown = await rawPost(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': 'nope' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json.error.code, -32001);

      const session = await openSession(t.mcpUrl, { authorization: 'Bearer alice' });
      const mine = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { 'mcp-session-id': session, authorization: 'Bearer alice' },
      );
      assert.equal(mine.status, 200);
      const foreign = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 3, method: 'ping' },
        { 'mcp-session-id': session, authorization: 'Bearer mallory' },
      );
      assert.equal(foreign.status, 404, 'another caller cannot use the session');

      const ended = await fetch(t.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': session, authorization: 'Bearer alice' } });
      assert.equal(ended.status, 204);
      const after = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 4, method: 'ping' },
        { 'mcp-session-id': session, authorization: 'Bearer alice' },
      );
      assert.equal(after.status, 404);
    });

    it('every SSE event has an id, and GET with Last-Event-ID replays the rest of that stream, for its own session only', async () => {
      const session = await openSession(t.mcpUrl);
      const answer = await rawPost(t.mcpUrl, callCount(7), { 'mcp-session-id': session });
      assert.equal(answer.isSse, true);
      assert.deepEqual(
        answer.events.map((e) => e.data.method ?? 'response'),
        [
          'notifications/progress',
          'notifications/message',
          'notifications/progress',
          'notifications/message',
          'notifications/progress',
          'notifications/message',
          'response',
        ],
      );
      assert.ok(
        answer.events.every((e) => e.id),
        'every event carries an id',
      );

      const replay = async (sessionId: string) => {
        const controller = new AbortController();
        const response = await fetch(t.mcpUrl, {
          headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'last-event-id': answer.events[4].id! },
          signal: controller.signal,
        });
        assert.equal(response.status, 200);
        return parseSse(await response.text());
      };
      const replayed = await replay(session);
      assert.deepEqual(
        replayed.map((e) => e.id),
        answer.events.slice(5).map((e) => e.id),
      );
      assert.equal(replayed.at(-1)!.data.id, 7, 'the replayed answer ends with its response');

      // Another session's event id is ignored: its GET is a fresh standalone stream (no replay).
      const other = await openSession(t.mcpUrl);
      const controller = new AbortController();
      const response = await fetch(t.mcpUrl, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': other, 'last-event-id': answer.events[0].id! },
        signal: controller.signal,
      });
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const first = await Promise.race([
        reader.read().then(() => 'data'),
        new Promise((resolve) => setTimeout(() => resolve('nothing'), 300)),
      ]);
      assert.equal(first, 'nothing', 'nothing of the other session was replayed');
      controller.abort();
    });

    it('an answer for an id this session was not sent is refused', async () => {
      const session = await openSession(t.mcpUrl);
      for (const id of ['made-up', 'mcp-srv.x.9999999999999.y', 42]) {
        const answer = await rawPost(t.mcpUrl, { jsonrpc: '2.0', id, result: { action: 'accept' } }, { 'mcp-session-id': session });
        assert.equal(answer.status, 400, `id ${id}`);
      }
    });

    it('a client that never answers: the call fails with a clear error after the timeout, and the tool did not finish', async () => {
      const session = await openSession(t.mcpUrl, {}, { elicitation: {} });
      const answer = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask_name', arguments: {} } },
        { 'mcp-session-id': session },
      );
      assert.equal(answer.events[0].data.method, 'elicitation/create');
      const last = answer.events.at(-1)!.data;
      assert.equal(last.id, 9);
      assert.match(last.error.message, /did not answer elicitation\/create within 2000 ms/);
      assert.deepEqual(
        hookLog.filter((h) => h.target === 'ask_name').at(-1),
        { target: 'ask_name', failed: true },
        'the hook saw a failure: it rolls back',
      );
    });

    it('a client that disconnects mid-call aborts the handler’s signal and the call fails in the hook', async () => {
      const session = await openSession(t.mcpUrl);
      const seen = abortReasons.length;
      (await startWaiting(t.mcpUrl, session, 11)).abort();
      await eventually(() => abortReasons.length > seen && hookLog.filter((h) => h.target === 'wait_for_abort').length > 0);
      assert.match(abortReasons[seen], /disconnected/);
      assert.deepEqual(hookLog.filter((h) => h.target === 'wait_for_abort').at(-1), { target: 'wait_for_abort', failed: true });
    });

    it('notifications/cancelled aborts the running call of its session only', async () => {
      const session = await openSession(t.mcpUrl);
      const seen = abortReasons.length;
      const calls = hookLog.length;
      const controller = await startWaiting(t.mcpUrl, session, 12);
      const other = await openSession(t.mcpUrl);
      const cancel = (sessionId: string) =>
        rawPost(
          t.mcpUrl,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12, reason: 'user stop' } },
          { 'mcp-session-id': sessionId },
        );
      assert.equal((await cancel(other)).status, 202);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(abortReasons.length, seen, "another session's cancellation does nothing");
      assert.equal((await cancel(session)).status, 202);
      await eventually(() => abortReasons.length > seen && hookLog.length > calls);
      assert.match(abortReasons[seen], /cancelled the request \(user stop\)/);
      assert.deepEqual(hookLog.at(-1), { target: 'wait_for_abort', failed: true });
      controller.abort();
    });

    it('GET needs a session and Accept: text/event-stream; a GET or DELETE body is refused', async () => {
      assert.equal((await fetch(t.mcpUrl, { headers: { accept: 'text/event-stream' } })).status, 400);
      const session = await openSession(t.mcpUrl);
      assert.equal((await fetch(t.mcpUrl, { headers: { accept: 'application/json', 'mcp-session-id': session } })).status, 406);
      const withBody = await fetch(t.mcpUrl, {
        method: 'DELETE',
        headers: { 'mcp-session-id': session, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(withBody.status, 400);
      const evil = await fetch(t.mcpUrl, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, origin: 'http://evil.example' },
      });
      assert.equal(evil.status, 403);
    });
  });
});

describe('stream mode limits', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(streamsApp({ maxStreamsPerCaller: 1, idleStreamMs: 300 }));
  });
  after(async () => {
    await t?.close();
  });

  it('a caller over its stream limit gets 429; an idle GET stream is closed', async () => {
    const session = await openSession(t.mcpUrl);
    const first = await fetch(t.mcpUrl, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    assert.equal(first.status, 200);
    const second = await fetch(t.mcpUrl, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    assert.equal(second.status, 429);
    assert.ok(second.headers.get('retry-after'));
    // The idle stream ends by itself (the body completes), which frees the slot.
    await first.text();
    for (let i = 0; i < 50; i++) {
      const again = await fetch(t.mcpUrl, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
      if (again.status === 200) {
        await again.body?.cancel();
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail('the slot of the closed stream was not freed');
  });
});

/**
 * In-chat confirmation over the stream is asked BEFORE the application's call hook: whatever the
 * hook opens around a call (a database transaction) never waits for a person.
 */
const order: string[] = [];
/** When the hook was last entered (performance.now()). */
let hookEnteredAt = 0;

@Injectable()
class OrderHook implements McpCallHook {
  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    order.push(`hook enter ${call.target}`);
    hookEnteredAt = performance.now();
    try {
      const result = await proceed();
      order.push(`hook exit ${call.target}${(result as { isError?: boolean }).isError ? ' (error result)' : ''}`);
      return result;
    } catch (error) {
      order.push(`hook exit ${call.target} (threw)`);
      throw error;
    }
  }
}

@Injectable()
class OrderTools {
  @McpTool({ name: 'erase', description: 'Erases everything', annotations: { destructiveHint: true } })
  erase() {
    order.push('erase ran');
    return { content: [{ type: 'text' as const, text: 'erased' }] };
  }

  @McpTool({ name: 'peek', description: 'Harmless', annotations: { readOnlyHint: true } })
  peek() {
    return { content: [{ type: 'text' as const, text: 'peeked' }] };
  }
}

@Module({ providers: [OrderHook], exports: [OrderHook] })
class OrderHookModule {}

@Module({
  imports: [
    McpModule.forRoot({
      serverInfo: { name: 'order-fixture', version: '1.0.0' },
      streams: { clientRequestTimeoutMs: 500, maxPendingConfirmationsPerCaller: 1 },
      imports: [OrderHookModule],
      callHook: { useExisting: OrderHook },
    }),
  ],
  providers: [OrderTools],
})
class OrderAppModule {}

describe('stream mode: in-chat confirmation before the call hook', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(OrderAppModule);
  });
  after(async () => {
    await t?.close();
  });

  it('asks the person before the hook is entered; the hook runs around the confirmed call, or the declined one', async () => {
    order.length = 0;
    const { client } = await sdkClient(t.mcpUrl, {
      elicit: (params) => (order.push(`asked: ${params.message.split('\n')[0]}`), { action: 'accept', content: { confirm: true } }),
    });
    try {
      const result = await client.callTool({ name: 'erase', arguments: {} });
      assert.deepEqual((result.content as any[])[0], { type: 'text', text: 'erased' });
    } finally {
      await client.close();
    }
    assert.deepEqual(order, ['asked: Confirm "erase"? Erases everything', 'hook enter erase', 'erase ran', 'hook exit erase']);

    order.length = 0;
    const { client: declining } = await sdkClient(t.mcpUrl, { elicit: () => (order.push('asked'), { action: 'decline' }) });
    try {
      const result = await declining.callTool({ name: 'erase', arguments: {} });
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /confirmation_declined/);
    } finally {
      await declining.close();
    }
    assert.deepEqual(order, ['asked', 'hook enter erase', 'hook exit erase (error result)'], 'a decline is still seen by the hook');
  });

  it('a question left unanswered fails the call in the hook, entered only after the timeout', async () => {
    order.length = 0;
    const session = await openSession(t.mcpUrl, {}, { elicitation: {} });
    const sent = performance.now();
    const answer = await rawPost(
      t.mcpUrl,
      { jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'erase', arguments: {} } },
      { 'mcp-session-id': session },
    );
    assert.equal(answer.events[0].data.method, 'elicitation/create');
    assert.match(answer.events.at(-1)!.data.error.message, /did not answer elicitation\/create within 500 ms/);
    assert.ok(
      hookEnteredAt - sent >= 450,
      `the hook was entered ${Math.round(hookEnteredAt - sent)} ms after the call, not after the wait`,
    );
    assert.deepEqual(order, ['hook enter erase', 'hook exit erase (threw)'], 'the tool did not run; the hook saw a failure');
  });

  it('asks nothing for a call that cannot run (invalid arguments): it fails in the hook as before', async () => {
    order.length = 0;
    const session = await openSession(t.mcpUrl, {}, { elicitation: {} });
    const answer = await rawPost(
      t.mcpUrl,
      { jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 'erase', arguments: { unexpected: 1 } } },
      { 'mcp-session-id': session },
    );
    assert.equal(answer.isSse, false, 'no question went out');
    assert.equal(answer.json.result.isError, true);
    assert.deepEqual(order, ['hook enter erase', 'hook exit erase (error result)']);
  });

  it('beyond maxPendingConfirmationsPerCaller waiting, the next destructive call gets too_many_pending_confirmations at once; other calls still work', async () => {
    const session = await openSession(t.mcpUrl, { authorization: 'Bearer carol' }, { elicitation: {} });
    const headers = { 'mcp-session-id': session, authorization: 'Bearer carol' };
    const controller = new AbortController();
    const pending = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': HANDSHAKE, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'erase', arguments: {} } }),
      signal: controller.signal,
    });
    const reader = pending.body!.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /elicitation\/create/, 'the first call waits for its answer');
    try {
      order.length = 0;
      const refused = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 32, method: 'tools/call', params: { name: 'erase', arguments: {} } },
        headers,
      );
      assert.equal(refused.isSse, false, 'not asked');
      const envelope = JSON.parse(refused.json.result.content[0].text);
      assert.equal(envelope.errors[0].code, 'too_many_pending_confirmations');
      assert.equal(envelope.errors[0].retryable, true);
      assert.match(envelope.errors[0].message, /1 confirmations of yours are already waiting for the user/);
      assert.deepEqual(order, ['hook enter erase', 'hook exit erase (error result)'], 'the refusal went through the hook');

      const peek = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 33, method: 'tools/call', params: { name: 'peek', arguments: {} } },
        headers,
      );
      assert.deepEqual(peek.json.result.content[0], { type: 'text', text: 'peeked' });
      const otherSession = await openSession(t.mcpUrl, { authorization: 'Bearer dave' }, { elicitation: {} });
      const other = await rawPost(
        t.mcpUrl,
        { jsonrpc: '2.0', id: 34, method: 'tools/call', params: { name: 'erase', arguments: {} } },
        { 'mcp-session-id': otherSession, authorization: 'Bearer dave' },
      );
      assert.equal(other.events[0].data.method, 'elicitation/create', 'another caller is still asked');
    } finally {
      controller.abort();
    }
  });
});
