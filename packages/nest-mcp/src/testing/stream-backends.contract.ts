import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpEventStore, McpMessageBus, McpSessionStore } from '../contracts/stream-backends.js';
import type { McpSession } from '../invocation/mcp-session.js';

/**
 * The contract of stream mode's three shared backends (`McpSessionStore`, `McpEventStore`,
 * `McpMessageBus`) as a `node:test` suite, for whoever implements them: `@nest-mcp/prisma` and
 * `@nest-mcp/redis` run it on their backends, and an application with backends of its own runs it
 * on those. `open` gives the backends of one replica and a bus of another (its own connections);
 * the event store must keep at most {@link CONTRACT_MAX_EVENTS_PER_STREAM} events per stream.
 */
export interface StreamBackendsUnderTest {
  sessions: McpSessionStore;
  events: McpEventStore;
  /** The bus of this replica, and that of another one (its own connections). */
  bus: McpMessageBus;
  otherBus: McpMessageBus;
  close(): Promise<void>;
}

/** The per-stream event limit the suite checks: build the event store under test with it. */
export const CONTRACT_MAX_EVENTS_PER_STREAM = 5;
const MAX_PER_STREAM = CONTRACT_MAX_EVENTS_PER_STREAM;

const message = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});
const session = (overrides: Partial<McpSession> = {}): McpSession => ({
  id: randomUUID(),
  callerKey: 'caller-a',
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'client', version: '1.0.0' },
  clientCapabilities: { elicitation: { form: {} } },
  createdAt: new Date(Math.floor(Date.now() / 1000) * 1000),
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});
/** A stream id of the session, as the layer makes them (`<session>/<kind>-<id>`). */
const streamOf = (sessionId: string) => `${sessionId}/post-${randomUUID()}`;
const nextMessage = (bus: McpMessageBus, channel: string) =>
  new Promise<{ payload: Promise<unknown>; ready: Promise<() => Promise<void>> }>((resolveOuter) => {
    let resolvePayload!: (payload: unknown) => void;
    const payload = new Promise<unknown>((resolve) => (resolvePayload = resolve));
    resolveOuter({ payload, ready: bus.subscribe(channel, resolvePayload) });
  });

export function streamBackendsContract(name: string, open: () => Promise<StreamBackendsUnderTest>): void {
  describe(`stream backends: ${name}`, () => {
    let b: StreamBackendsUnderTest;
    before(async () => {
      b = await open();
    });
    after(() => b?.close());

    it('sessions: create, get, update each field, delete', async () => {
      const store = b.sessions;
      const s = session();
      assert.equal(await store.create(s, 10), true);
      assert.deepEqual(await store.get(s.id), s);
      const later = new Date(Math.floor(Date.now() / 1000) * 1000 + 120_000);
      await store.update(s.id, { logLevel: 'debug' });
      await store.update(s.id, { standaloneStream: `${s.id}/get-1`, delivered: `${s.id}/get-1:7`, expiresAt: later });
      assert.deepEqual(await store.get(s.id), {
        ...s,
        logLevel: 'debug',
        standaloneStream: `${s.id}/get-1`,
        delivered: `${s.id}/get-1:7`,
        expiresAt: later,
      });
      await store.update(s.id, { logLevel: undefined, standaloneStream: undefined });
      const cleared = await store.get(s.id);
      assert.equal(cleared?.logLevel, undefined);
      assert.equal(cleared && 'standaloneStream' in cleared, false);
      assert.equal(cleared?.delivered, `${s.id}/get-1:7`, 'a field the patch does not name stays');
      await store.delete(s.id);
      assert.equal(await store.get(s.id), undefined);
      await store.update(s.id, { logLevel: 'info' }); // unknown id: no-op, and nothing is recreated
      assert.equal(await store.get(s.id), undefined);
      assert.equal(await store.get('no-such-session'), undefined);
    });

    it('sessions: an expired session is unknown and never a subscriber', async () => {
      const store = b.sessions;
      const uri = `billing://invoices/${randomUUID()}`;
      const s = session({ expiresAt: new Date(Date.now() + 300) });
      await store.create(s, 10);
      assert.equal(await store.subscribe(s.id, uri, 10), true);
      assert.deepEqual(await store.subscribersOf(uri), [s.id]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(await store.get(s.id), undefined);
      assert.deepEqual(await store.subscribersOf(uri), []);
      assert.equal(await store.subscribe(s.id, uri, 10), false, 'an expired session cannot subscribe');
    });

    it('sessions: subscribersOf follows subscribe and unsubscribe, per URI; a session read has no subscriptions', async () => {
      const store = b.sessions;
      const [u1, u2] = [`billing://invoices/${randomUUID()}`, `billing://customers/${randomUUID()}`];
      const a = session();
      const c = session();
      await store.create(a, 10);
      await store.create(c, 10);
      assert.equal(await store.subscribe(c.id, u1, 10), true);
      assert.equal(await store.subscribe(a.id, u1, 10), true);
      assert.equal(await store.subscribe(a.id, u2, 10), true);
      assert.deepEqual((await store.subscribersOf(u1)).sort(), [a.id, c.id].sort());
      assert.deepEqual(await store.subscribersOf(u2), [a.id]);
      assert.deepEqual(await store.get(a.id), a, 'get returns the session alone, no subscriptions');
      await store.unsubscribe(a.id, u1);
      assert.deepEqual(await store.subscribersOf(u1), [c.id]);
      await store.unsubscribe(a.id, u1); // not subscribed: no-op
      await store.delete(c.id);
      assert.deepEqual(await store.subscribersOf(u1), []);
      assert.equal(await store.subscribe('no-such-session', u1, 10), false, 'an unknown session cannot subscribe');
      assert.deepEqual(await store.subscribersOf(u1), []);
    });

    it('sessions: at most maxPerSession subscriptions; a repeat is no new one; unsubscribe and delete free them', async () => {
      const store = b.sessions;
      const s = session();
      await store.create(s, 10);
      const uris = [1, 2, 3].map((n) => `billing://invoices/${randomUUID()}?n=${n}`);
      assert.equal(await store.subscribe(s.id, uris[0], 2), true);
      assert.equal(await store.subscribe(s.id, uris[1], 2), true);
      assert.equal(await store.subscribe(s.id, uris[1], 2), true, 'already subscribed: true at the cap');
      assert.equal(await store.subscribe(s.id, uris[2], 2), false, 'a third one');
      assert.deepEqual(await store.subscribersOf(uris[2]), []);
      await store.unsubscribe(s.id, uris[0]);
      assert.equal(await store.subscribe(s.id, uris[2], 2), true, 'unsubscribing freed a place');
      // A URI as long as the layer accepts (8192 characters) is stored and found.
      const long = `billing://invoices/${'x'.repeat(8192 - 19)}`;
      const other = session();
      await store.create(other, 10);
      assert.equal(await store.subscribe(other.id, long, 2), true);
      assert.deepEqual(await store.subscribersOf(long), [other.id]);
      await store.delete(s.id);
      assert.deepEqual(await store.subscribersOf(uris[1]), [], 'delete ends its subscriptions');
      assert.deepEqual(await store.subscribersOf(uris[2]), []);
    });

    it('sessions: at most maxPerCaller live sessions per caller; an ended or expired one frees a place', async () => {
      const store = b.sessions;
      const callerKey = `caller-${randomUUID()}`;
      const first = session({ callerKey });
      const short = session({ callerKey, expiresAt: new Date(Date.now() + 300) });
      assert.equal(await store.create(first, 2), true);
      assert.equal(await store.create(short, 2), true);
      const third = session({ callerKey });
      assert.equal(await store.create(third, 2), false);
      assert.equal(await store.get(third.id), undefined, 'nothing stored');
      assert.equal(await store.create(session({ callerKey: `${callerKey}-other` }), 2), true, 'each caller has its own count');
      await store.delete(first.id);
      assert.equal(await store.create(third, 2), true, 'a deleted session frees its place');
      const fourth = session({ callerKey });
      assert.equal(await store.create(fourth, 2), false);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(await store.create(fourth, 2), true, 'so does an expired one');
    });

    it('sessions: a session kept alive past its first expiry still counts for its caller, and keeps its subscriptions', async () => {
      const store = b.sessions;
      const callerKey = `caller-${randomUUID()}`;
      const uri = `billing://invoices/${randomUUID()}`;
      const s = session({ callerKey, expiresAt: new Date(Date.now() + 300) });
      assert.equal(await store.create(s, 1), true);
      assert.equal(await store.subscribe(s.id, uri, 10), true);
      await store.update(s.id, { expiresAt: new Date(Date.now() + 60_000) });
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.ok(await store.get(s.id));
      assert.equal(await store.create(session({ callerKey }), 1), false, 'the sliding expiry is the one counted');
      assert.deepEqual(await store.subscribersOf(uri), [s.id], 'the subscription lives as long as the session');
    });

    it('events: append gives ids unique across calls that name their stream; replay returns what followed, in order', async () => {
      const sessionId = randomUUID();
      const stream = streamOf(sessionId);
      const other = streamOf(sessionId);
      const ids = [];
      for (let n = 1; n <= 3; n++) {
        ids.push(await b.events.append(stream, message(n)));
        await b.events.append(other, message(100 + n));
      }
      assert.equal(new Set(ids).size, 3);
      for (const id of ids) assert.ok(id.startsWith(`${stream}:`), id);
      assert.deepEqual(await b.events.replayAfter(ids[0], sessionId), {
        streamId: stream,
        events: [
          { id: ids[1], message: message(2) },
          { id: ids[2], message: message(3) },
        ],
      });
      assert.deepEqual(await b.events.replayAfter(ids[2], sessionId), { streamId: stream, events: [] });
    });

    it("events: another session's id, an unknown id or garbage replays nothing", async () => {
      const sessionId = randomUUID();
      const id = await b.events.append(streamOf(sessionId), message(1));
      assert.equal(await b.events.replayAfter(id, randomUUID()), undefined);
      assert.equal(await b.events.replayAfter(id, ''), undefined);
      assert.equal(await b.events.replayAfter(`${streamOf(sessionId)}:1`, sessionId), undefined);
      for (const garbage of ['', 'x', ':', `${sessionId}/post-x:`, `${id}0`, `${id}:../../etc`]) {
        assert.equal(await b.events.replayAfter(garbage, sessionId), undefined, garbage);
      }
    });

    it(`events: retention keeps at most ${MAX_PER_STREAM} per stream; an id trimmed away replays nothing`, async () => {
      const sessionId = randomUUID();
      const stream = streamOf(sessionId);
      const ids = [];
      for (let n = 1; n <= MAX_PER_STREAM + 3; n++) ids.push(await b.events.append(stream, message(n)));
      assert.equal(await b.events.replayAfter(ids[0], sessionId), undefined);
      const kept = ids.length - MAX_PER_STREAM;
      const replay = await b.events.replayAfter(ids[kept], sessionId);
      assert.deepEqual(
        replay?.events.map((event) => event.id),
        ids.slice(kept + 1),
      );
    });

    it('bus: a message published on one replica reaches a subscriber on another, and stops after unsubscribe', async () => {
      const channel = `test:${randomUUID()}`;
      const { payload, ready } = await nextMessage(b.otherBus, channel);
      const unsubscribe = await ready;
      await b.bus.publish(channel, { uri: 'billing://invoices/1', n: 1 });
      assert.deepEqual(await payload, { uri: 'billing://invoices/1', n: 1 });

      const heard: unknown[] = [];
      const local = await b.otherBus.subscribe(channel, (p) => heard.push(p));
      await unsubscribe();
      const { payload: marker, ready: markerReady } = await nextMessage(b.otherBus, `${channel}:marker`);
      await markerReady;
      await b.bus.publish(channel, { n: 2 });
      await b.bus.publish(`${channel}:marker`, 'done');
      await marker;
      assert.deepEqual(heard, [{ n: 2 }], 'the remaining subscriber still hears; the ended one did not throw');
      await local();
    });
  });
}
