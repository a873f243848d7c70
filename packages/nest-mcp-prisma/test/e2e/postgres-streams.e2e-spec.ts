import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Module } from '@nestjs/common';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { McpModule } from '@nest-mcp/core';
import { MCP_EVENT_STORE, MCP_MESSAGE_BUS, MCP_SESSION_STORE, type McpSession } from '@nest-mcp/core/extensions';
import { CONTRACT_MAX_EVENTS_PER_STREAM, startMcpTestApp, streamBackendsContract } from '@nest-mcp/core/testing';
import {
  McpDatabase,
  McpPrismaModule,
  mcpPrismaExtensions,
  mcpPrismaStreamExtensions,
  PostgresEventStore,
  PostgresMessageBus,
  PostgresSessionStore,
  StreamRowsCleanup,
} from '../../src/index.js';
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../support/package-database.js';

/**
 * Stream mode's shared state in PostgreSQL, as two replicas see it (two `McpDatabase`s, each with
 * its own pool and LISTEN connection, on one database): the core's contract suite of the three
 * backends (`streamBackendsContract`), then what is PostgreSQL's own: sessions and their caps, replayable events
 * bounded by age and count and refused to another session, the bus between replicas, the cleanup.
 */
const limits = { retentionMs: 60_000, maxPerStream: 3 };
const message = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });
const session = (overrides: Partial<McpSession> = {}): McpSession => ({
  id: randomUUID(),
  callerKey: 'caller-a',
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'client', version: '1' },
  clientCapabilities: { elicitation: {} },
  createdAt: new Date(),
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});

describe('stream mode in PostgreSQL (real server, two replicas)', { skip: NEEDS_DATABASE }, () => {
  let database: PackageDatabase;
  let one: McpDatabase;
  let two: McpDatabase;
  const buses: PostgresMessageBus[] = [];
  before(async () => {
    database = await createPackageDatabase();
    one = new McpDatabase({ url: database.url });
    two = new McpDatabase({ url: database.url });
  });
  after(async () => {
    for (const bus of buses) await bus.close();
    await one?.onApplicationShutdown();
    await two?.onApplicationShutdown();
    await database?.close();
  });

  streamBackendsContract('PostgreSQL tables and LISTEN/NOTIFY', async () => {
    const [bus, otherBus] = [new PostgresMessageBus(one), new PostgresMessageBus(two)];
    buses.push(bus, otherBus);
    return {
      sessions: new PostgresSessionStore(one),
      events: new PostgresEventStore(one, { retentionMs: 60_000, maxPerStream: CONTRACT_MAX_EVENTS_PER_STREAM }),
      bus,
      otherBus,
      close: async () => undefined,
    };
  });

  it('a session created on one replica is read, updated and deleted from the other, whole', async () => {
    const [here, there] = [new PostgresSessionStore(one), new PostgresSessionStore(two)];
    const created = session({ logLevel: 'debug' });
    assert.equal(await here.create(created, 10), true);
    assert.deepEqual(await there.get(created.id), created);
    await there.update(created.id, { logLevel: undefined, standaloneStream: 'conn-1', delivered: `${created.id}/get:7` });
    const updated = await here.get(created.id);
    assert.equal(updated?.logLevel, undefined);
    assert.deepEqual([updated?.standaloneStream, updated?.delivered], ['conn-1', `${created.id}/get:7`]);
    await here.delete(created.id);
    assert.equal(await there.get(created.id), undefined);
  });

  it('an expired session is unknown at once, and counts against no cap', async () => {
    const store = new PostgresSessionStore(one);
    const expired = session({ callerKey: 'caller-exp', expiresAt: new Date(Date.now() + 100) });
    await store.create(expired, 1);
    await sleep(150);
    assert.equal(await store.get(expired.id), undefined);
    assert.equal(await store.create(session({ callerKey: 'caller-exp' }), 1), true);
  });

  it('refuses a session past the per-caller cap, and a subscription past the per-session cap (an existing one is still yes)', async () => {
    const store = new PostgresSessionStore(one);
    assert.equal(await store.create(session({ callerKey: 'caller-cap' }), 2), true);
    const second = session({ callerKey: 'caller-cap' });
    assert.equal(await store.create(second, 2), true);
    assert.equal(await store.create(session({ callerKey: 'caller-cap' }), 2), false);
    assert.equal(await store.subscribe(second.id, 'notes://1', 2), true);
    assert.equal(await store.subscribe(second.id, 'notes://2', 2), true);
    assert.equal(await store.subscribe(second.id, 'notes://3', 2), false);
    assert.equal(await store.subscribe(second.id, 'notes://1', 2), true, 'already subscribed');
    assert.deepEqual(await new PostgresSessionStore(two).subscribersOf('notes://1'), [second.id]);
    await store.unsubscribe(second.id, 'notes://1');
    assert.deepEqual(await store.subscribersOf('notes://1'), []);
    assert.equal(await store.subscribe(randomUUID(), 'notes://1', 2), false, 'no such session');
  });

  it('holds the caps exactly under concurrency: of 40 racing creates on two replicas, the cap; of 40 racing subscriptions, the cap', async () => {
    const stores = [new PostgresSessionStore(one), new PostgresSessionStore(two)];
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2].create(session({ callerKey: 'caller-race' }), 5)));
    assert.equal(created.filter(Boolean).length, 5);
    assert.deepEqual(await database.rows("SELECT count(*)::int AS n FROM mcp_sessions WHERE caller_key = 'caller-race'"), [{ n: 5 }]);
    const host = session({ callerKey: 'caller-race-subs' });
    await stores[0].create(host, 5);
    const subscribed = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2].subscribe(host.id, `notes://race/${i}`, 7)));
    assert.equal(subscribed.filter(Boolean).length, 7);
    assert.deepEqual(await database.rows('SELECT count(*)::int AS n FROM mcp_session_subscriptions WHERE session_id = $1', [host.id]), [
      { n: 7 },
    ]);
  });

  it('replays the events after an id on the other replica, keeps the newest per stream, and refuses another session', async () => {
    const [here, there] = [new PostgresEventStore(one, limits), new PostgresEventStore(two, limits)];
    const sessionId = randomUUID();
    const stream = `${sessionId}/post-${randomUUID()}`;
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await here.append(stream, message(n)));
    assert.deepEqual(
      (await there.eventsOf(stream)).map((event) => event.message),
      [message(3), message(4), message(5)],
      'the oldest beyond maxPerStream went',
    );
    const replay = await there.replayAfter(ids[3], sessionId);
    assert.deepEqual(replay, { streamId: stream, events: [{ id: ids[4], message: message(5) }] });
    assert.equal(await there.replayAfter(ids[3], randomUUID()), undefined, "another session's id");
    assert.equal(await there.replayAfter(ids[0], sessionId), undefined, 'an event no longer kept');
    for (const bad of ['nonsense', `${stream}:0`, `${stream}:-1`, `${stream}:99999999999999999999`]) {
      assert.equal(await there.replayAfter(bad, sessionId), undefined, bad);
    }
  });

  it('delivers a bus message published on one replica to the other, and refuses one too large for NOTIFY', async () => {
    const channel = `bus_${randomUUID().slice(0, 8)}`;
    const [publisher, listener] = [new PostgresMessageBus(one, channel), new PostgresMessageBus(two, channel)];
    buses.push(publisher, listener);
    const heard: unknown[] = [];
    const arrived = new Promise<void>((resolve) => void listener.subscribe('answers', (payload) => (heard.push(payload), resolve())));
    await sleep(100);
    await publisher.publish('answers', { id: 7 });
    await publisher.publish('elsewhere', { id: 8 });
    await arrived;
    await sleep(50);
    assert.deepEqual(heard, [{ id: 7 }]);
    await assert.rejects(publisher.publish('answers', 'x'.repeat(8000)), /under 8000/);
  });

  it('the cleanup deletes expired sessions with their subscriptions and events past the retention, nothing else', async () => {
    const store = new PostgresSessionStore(one);
    const events = new PostgresEventStore(one, limits);
    const expired = session({ callerKey: 'caller-clean', expiresAt: new Date(Date.now() + 50) });
    const live = session({ callerKey: 'caller-clean' });
    await store.create(expired, 10);
    await store.create(live, 10);
    await store.subscribe(expired.id, 'notes://gone', 10);
    const kept = await events.append(`${live.id}/get`, message(1));
    await sleep(100);
    const cleanup = new StreamRowsCleanup(one, { limits, cleanupIntervalMs: 0 });
    assert.ok((await cleanup.run(new Date())) >= 1);
    assert.deepEqual(await database.rows('SELECT 1 FROM mcp_session_subscriptions WHERE session_id = $1', [expired.id]), []);
    assert.equal((await store.get(live.id))?.id, live.id);
    assert.equal((await events.eventsOf(`${live.id}/get`)).length, 1);
    await cleanup.run(new Date(Date.now() + limits.retentionMs + 1_000));
    assert.equal(await events.replayAfter(kept, live.id), undefined, 'past the retention');
  });

  it('mcpPrismaStreamExtensions() puts the three stores behind the layer, with the streams option', async () => {
    @Module({
      imports: [
        McpPrismaModule.forRoot({ connection: { url: database.url }, streams: { maxEventsPerStream: 2, cleanupIntervalMs: 0 } }),
        McpModule.forRoot({ streams: true, ...mcpPrismaExtensions(), ...mcpPrismaStreamExtensions() }),
      ],
    })
    class StreamsApp {}
    const { app, close } = await startMcpTestApp(StreamsApp);
    try {
      assert.ok(app.get(MCP_SESSION_STORE) instanceof PostgresSessionStore);
      assert.ok(app.get(MCP_EVENT_STORE) instanceof PostgresEventStore);
      assert.ok(app.get(MCP_MESSAGE_BUS) instanceof PostgresMessageBus);
    } finally {
      await close();
    }
  });
});
