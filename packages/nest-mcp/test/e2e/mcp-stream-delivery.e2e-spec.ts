/**
 * What a session's `GET` streams carry, and when (a message is delivered once, never lost while no stream is open): each message goes
 * on one stream only (the session's newest); what is announced while no stream is open waits in a
 * bounded backlog for the next `GET`; a resource update reaches only a caller who may still read
 * the resource; a revoked token's streams close, and its sessions end, within `revalidateMs`.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { McpResourceUpdates } from '@nest-mcp/core';
import { collectSse, startMcpTestApp, type McpTestApp, type SseEvent } from '@nest-mcp/core/testing';
import { ledger, revoked, streamDeliveryApp } from '../fixtures/stream-delivery.fixture.js';

const VERSION = '2025-11-25';
const URI = 'demo://ledger';

/** One open GET stream: the messages it has carried so far, and whether it ended. */
interface OpenGet {
  messages: SseEvent[];
  ended: Promise<void>;
  close(): void;
}

describe('stream delivery: one stream per message, backlog, read check, revocation', () => {
  let t: McpTestApp;
  let updates: McpResourceUpdates;
  const opened: OpenGet[] = [];

  before(async () => {
    t = await startMcpTestApp(streamDeliveryApp());
    updates = t.app.get(McpResourceUpdates);
  });
  afterEach(() => {
    for (const stream of opened.splice(0)) stream.close();
    ledger.readable = true;
    revoked.clear();
  });
  after(async () => {
    await t?.close();
  });

  const headers = (token: string, session?: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    authorization: `Bearer ${token}`,
    ...(session ? { 'mcp-session-id': session } : {}),
  });

  async function rpc(token: string, session: string | undefined, id: number, method: string, params: Record<string, unknown> = {}) {
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: headers(token, session),
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    return { status: response.status, session: response.headers.get('mcp-session-id'), body: (await response.json()) as any };
  }

  /** A session subscribed to the ledger. */
  async function subscribedSession(token: string): Promise<string> {
    const init = await rpc(token, undefined, 0, 'initialize', {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: 'delivery', version: '1' },
    });
    assert.equal(init.status, 200);
    const session = init.session!;
    const subscribed = await rpc(token, session, 1, 'resources/subscribe', { uri: URI });
    assert.deepEqual(subscribed.body.result, {});
    return session;
  }

  async function openGet(token: string, session: string, lastEventId?: string): Promise<OpenGet> {
    const controller = new AbortController();
    const response = await fetch(t.mcpUrl, {
      headers: { ...headers(token, session), accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    const { events: messages, ended } = collectSse(response);
    const stream = { messages, ended, close: () => controller.abort() };
    opened.push(stream);
    // The stream registers itself as the session's current one before its first byte: give it a round trip.
    await rpc(token, session, 99, 'ping');
    return stream;
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

  it("a change goes out once, on the newest of a session's open GET streams", async () => {
    const session = await subscribedSession('alice');
    const streams = [await openGet('alice', session), await openGet('alice', session), await openGet('alice', session)];
    await updates.changed(URI);
    await settle();
    assert.deepEqual(
      streams.map((s) => s.messages.length),
      [0, 0, 1],
      'one copy, on the newest stream',
    );
    assert.equal(streams[2].messages[0].data.method, 'notifications/resources/updated');
    assert.ok(streams[2].messages[0].id, 'with an event id');
  });

  it('what is announced while no stream is open is delivered on the next GET, once', async () => {
    const session = await subscribedSession('alice');
    await updates.changed(URI);
    await updates.changed(URI);
    const first = await openGet('alice', session);
    await settle();
    assert.equal(first.messages.length, 2, 'the backlog of two changes');
    first.close();
    await first.ended;
    const second = await openGet('alice', session);
    await settle();
    assert.equal(second.messages.length, 0, 'what was delivered is not delivered again');
    await updates.changed(URI);
    await settle();
    assert.equal(second.messages.length, 1);
  });

  it('a change to a resource the subscriber can no longer read is not delivered', async () => {
    const session = await subscribedSession('alice');
    const stream = await openGet('alice', session);
    ledger.readable = false;
    await updates.changed(URI);
    await settle();
    assert.equal(stream.messages.length, 0, 'reading it answers "not found": no notification');
    ledger.readable = true;
    await updates.changed(URI);
    await settle();
    assert.equal(stream.messages.length, 1);
  });

  it("a revoked token's GET streams close and its sessions end within revalidateMs, and hear nothing more", async () => {
    const session = await subscribedSession('bob');
    const stream = await openGet('bob', session);
    const other = await subscribedSession('carol');
    const carols = await openGet('carol', other);
    revoked.add('bob');
    // No message needed: the periodic check (revalidateMs: 200 in the fixture) finds it.
    const closed = await Promise.race([
      stream.ended.then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('open'), 1_000)),
    ]);
    assert.equal(closed, 'closed');
    assert.equal(stream.messages.length, 0, 'nothing after the revocation');
    const after = await rpc('bob', session, 5, 'ping');
    assert.equal(after.status, 404, 'the session ended');
    await updates.changed(URI);
    await settle();
    assert.equal(carols.messages.length, 1, 'another caller is untouched');
  });
});
