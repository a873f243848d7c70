/**
 * Stream mode's bounded session state (a client cannot grow what the server keeps): sessions per caller and subscriptions per
 * session are capped, a session stores a summary of the client's capabilities (never the
 * client's object), and `resources/subscribe` applies exactly the check of `resources/read`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module, NotFoundException, Param } from '@nestjs/common';
import { McpModule, McpResource } from '@nest-mcp/core';
import { MCP_SESSION_STORE, type McpSessionStore } from '@nest-mcp/core/extensions';
import { post, startMcpTestApp, type HttpAnswer, type McpTestApp } from '@nest-mcp/core/testing';

const HANDSHAKE = '2025-06-18';
const MAX_SESSIONS = 2;
const MAX_SUBSCRIPTIONS = 2;

@Injectable()
class BoundsResources {
  @McpResource({ uri: 'demo://status', name: 'status', mimeType: 'text/plain' })
  status() {
    return 'green';
  }

  /** Only `demo://items/known-*` exist; any other id is not found, as a lookup in another workspace. */
  @McpResource({ uri: 'demo://items/{id}', name: 'item', mimeType: 'application/json' })
  item(@Param('id') id: string) {
    if (!id.startsWith('known')) throw new NotFoundException(`Item ${id} does not exist.`);
    return { id };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      serverInfo: { name: 'bounds-fixture', version: '1.0.0' },
      streams: { maxSessionsPerCaller: MAX_SESSIONS, maxSubscriptionsPerSession: MAX_SUBSCRIPTIONS },
      maxBodyBytes: 4 * 1024 * 1024,
    }),
  ],
  providers: [BoundsResources],
})
class BoundsAppModule {}

describe('stream mode: bounded session state', () => {
  let t: McpTestApp;
  let caller = 0;
  before(async () => {
    t = await startMcpTestApp(BoundsAppModule);
  });
  after(async () => {
    await t?.close();
  });

  /** A caller of its own (the default callerKey hashes the credentials). */
  const newCaller = () => ({ authorization: `Bearer caller-${++caller}-${process.pid}` });

  const initialize = (headers: Record<string, string>, capabilities: Record<string, unknown> = {}) =>
    post(
      t.mcpUrl,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: HANDSHAKE, capabilities, clientInfo: { name: 'bounds', version: '1' } },
      },
      { 'mcp-protocol-version': HANDSHAKE, ...headers },
    );
  const sessionOf = (answer: HttpAnswer) => {
    assert.equal(answer.status, 200, answer.text);
    const id = answer.headers.get('mcp-session-id');
    assert.ok(id, 'initialize issues Mcp-Session-Id');
    return id;
  };
  const request = (headers: Record<string, string>, session: string, method: string, params: Record<string, unknown>, id = 1) =>
    post(t.mcpUrl, { jsonrpc: '2.0', id, method, params }, { 'mcp-protocol-version': HANDSHAKE, 'mcp-session-id': session, ...headers });

  it(`refuses an initialize past maxSessionsPerCaller (${MAX_SESSIONS}) with 409 / -32600; DELETE of one lets a new one in`, async () => {
    const me = newCaller();
    const first = sessionOf(await initialize(me));
    sessionOf(await initialize(me));
    const refused = await initialize(me);
    assert.equal(refused.status, 409);
    assert.equal(refused.headers.get('mcp-session-id'), null, 'no session was issued');
    assert.equal(refused.body.error.code, -32600);
    assert.equal(refused.body.id, 0);
    assert.equal(refused.body.result, undefined, 'the initialize answer was not sent');
    assert.match(
      refused.body.error.message,
      /Too many open sessions for this caller \(2\): end one with DELETE .* or let it expire \(after 3600 s unused\)/,
    );

    const other = await initialize(newCaller());
    assert.equal(other.status, 200, 'another caller has its own count');

    const ended = await fetch(t.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': first, ...me } });
    assert.equal(ended.status, 204);
    sessionOf(await initialize(me));
  });

  it(`refuses resources/subscribe past maxSubscriptionsPerSession (${MAX_SUBSCRIPTIONS}) with -32600; unsubscribing frees a place`, async () => {
    const me = newCaller();
    const session = sessionOf(await initialize(me));
    const subscribe = (uri: string) => request(me, session, 'resources/subscribe', { uri });
    assert.deepEqual((await subscribe('demo://items/known-1')).body.result, {});
    assert.deepEqual((await subscribe('demo://items/known-2')).body.result, {});
    assert.deepEqual((await subscribe('demo://items/known-2')).body.result, {}, 'a repeat is not a new subscription');
    const refused = await subscribe('demo://status');
    assert.equal(refused.status, 200, 'a handshake-era error, inside a 200');
    assert.equal(refused.body.error.code, -32600);
    assert.equal(
      refused.body.error.message,
      'This session already has 2 subscriptions: unsubscribe from one first (resources/unsubscribe)',
    );
    assert.deepEqual(await t.app.get<McpSessionStore>(MCP_SESSION_STORE).subscribersOf('demo://status'), []);
    assert.deepEqual((await request(me, session, 'resources/unsubscribe', { uri: 'demo://items/known-1' })).body.result, {});
    assert.deepEqual((await subscribe('demo://status')).body.result, {});
    assert.deepEqual(await t.app.get<McpSessionStore>(MCP_SESSION_STORE).subscribersOf('demo://status'), [session]);
  });

  it("stores a summary of the client's capabilities, not the client's object (1 MB under experimental)", async () => {
    const me = newCaller();
    const junk = { blob: 'x'.repeat(1024 * 1024), nested: { deep: [1, 2, 3] } };
    const answer = await initialize(me, {
      experimental: { junk },
      elicitation: { form: { extra: 'y'.repeat(1000) }, url: {}, other: {} },
      sampling: { tools: {}, context: {} },
      roots: { listChanged: true },
      somethingElse: { big: 'z'.repeat(10_000) },
    });
    const session = sessionOf(answer);
    const stored = await t.app.get<McpSessionStore>(MCP_SESSION_STORE).get(session);
    assert.deepEqual(stored?.clientCapabilities, { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} });

    const plain = sessionOf(await initialize(newCaller(), { elicitation: {} }));
    assert.deepEqual(
      (await t.app.get<McpSessionStore>(MCP_SESSION_STORE).get(plain))?.clientCapabilities,
      { elicitation: {} },
      'an empty elicitation (form mode) stays empty; nothing undeclared appears',
    );
  });

  it('refuses to subscribe to a resource whose read fails, with the error reading it answers', async () => {
    const me = newCaller();
    const session = sessionOf(await initialize(me));
    for (const uri of ['demo://items/missing', 'demo://unknown']) {
      const read = await request(me, session, 'resources/read', { uri });
      const subscribed = await request(me, session, 'resources/subscribe', { uri });
      assert.ok(read.body.error, `reading ${uri} fails`);
      assert.equal(subscribed.status, read.status);
      assert.deepEqual(subscribed.body, read.body, `subscribing to ${uri} answers what reading it answers`);
      assert.deepEqual(await t.app.get<McpSessionStore>(MCP_SESSION_STORE).subscribersOf(uri), []);
    }
    const read = await request(me, session, 'resources/read', { uri: 'demo://items/missing' });
    assert.match(read.body.error.message, /Item missing does not exist/);
    assert.deepEqual((await request(me, session, 'resources/subscribe', { uri: 'demo://items/known-3' })).body.result, {});
  });
});
