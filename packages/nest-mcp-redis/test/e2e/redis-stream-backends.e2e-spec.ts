import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpMessageBus, McpSession } from '@nest-mcp/core/extensions';
import { CONTRACT_MAX_EVENTS_PER_STREAM, streamBackendsContract } from '@nest-mcp/core/testing';
import { RedisConnection, RedisEventStore, RedisMessageBus, RedisSessionStore } from '../../src/index.js';
import { runPrefix, TEST_REDIS_URL as REDIS_URL } from '../support/test-redis.js';

/**
 * The contract of stream mode's three shared backends (the core's suite, `streamBackendsContract`
 * of @nest-mcp/core/testing), run against the Redis ones on the machine's Redis, under a key prefix
 * of this run, and what is Redis's own. "Another replica" is a second `RedisConnection` with its own connections.
 */
const RETENTION_MS = 60_000;
const MAX_PER_STREAM = CONTRACT_MAX_EVENTS_PER_STREAM;
const limits = { retentionMs: RETENTION_MS, maxPerStream: MAX_PER_STREAM };

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
const streamOf = (sessionId: string) => `${sessionId}/post-${randomUUID()}`;
const nextMessage = (bus: McpMessageBus, channel: string) =>
  new Promise<{ payload: Promise<unknown>; ready: Promise<() => Promise<void>> }>((resolveOuter) => {
    let resolvePayload!: (payload: unknown) => void;
    const payload = new Promise<unknown>((resolve) => (resolvePayload = resolve));
    resolveOuter({ payload, ready: bus.subscribe(channel, resolvePayload) });
  });

streamBackendsContract('Redis', async () => {
  const prefix = runPrefix('mcp-test');
  const a = new RedisConnection(REDIS_URL, prefix);
  const other = new RedisConnection(REDIS_URL, prefix);
  await a.connect();
  await other.connect();
  return {
    sessions: new RedisSessionStore(a),
    events: new RedisEventStore(a, limits),
    bus: new RedisMessageBus(a),
    otherBus: new RedisMessageBus(other),
    close: async () => {
      const keys = await a.commands.keys(`${prefix}:*`);
      if (keys.length) await a.commands.del(keys);
      await a.close();
      await other.close();
    },
  };
});

describe('stream backends: Redis bus, listeners added while a SUBSCRIBE is pending', () => {
  const prefix = runPrefix('mcp-test');
  // A Redis user allowed on no channel but `<prefix>:bus:allowed*`: its other SUBSCRIBEs fail (NOPERM).
  const user = `mcp-test-limited-${process.pid}`;
  const admin = new RedisConnection(REDIS_URL, prefix);
  const limitedUrl = new URL(REDIS_URL);
  limitedUrl.username = user;
  limitedUrl.password = 'unused';
  let limited: RedisConnection;
  let publisher: RedisConnection;

  before(async () => {
    await admin.connect();
    await admin.commands.sendCommand(['ACL', 'SETUSER', user, 'on', 'nopass', 'resetchannels', `&${prefix}:bus:allowed*`, '~*', '+@all']);
    limited = new RedisConnection(limitedUrl.toString(), prefix);
    publisher = new RedisConnection(REDIS_URL, prefix);
    await Promise.all([limited.connect(), publisher.connect()]);
  });
  after(async () => {
    await Promise.all([limited.close(), publisher.close()]);
    await admin.commands.sendCommand(['ACL', 'DELUSER', user]);
    await admin.close();
  });

  it('every listener of a channel whose SUBSCRIBE fails is refused with it, and a later one tries again', async () => {
    const bus = new RedisMessageBus(limited);
    const channel = `refused-${randomUUID()}`;
    const results = await Promise.allSettled([bus.subscribe(channel, () => undefined), bus.subscribe(channel, () => undefined)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
      'the second listener must not be told it is subscribed',
    );
    await assert.rejects(
      bus.subscribe(channel, () => undefined),
      /NOPERM|permission/i,
    );
  });
});

describe('stream backends: Redis, as two replicas see it', () => {
  const prefix = runPrefix('mcp-test');
  const one = new RedisConnection(REDIS_URL, prefix);
  const two = new RedisConnection(REDIS_URL, prefix);
  const elsewhere = new RedisConnection(REDIS_URL, `${prefix}-other-app`);
  before(() => Promise.all([one.connect(), two.connect(), elsewhere.connect()]));
  after(async () => {
    for (const connection of [one, elsewhere]) {
      const keys = await connection.commands.keys(`${connection.keyPrefix}:*`);
      if (keys.length) await connection.commands.del(keys);
    }
    await Promise.all([one.close(), two.close(), elsewhere.close()]);
  });

  it('a session created on one replica is read, updated and deleted from the other, whole', async () => {
    const [here, there] = [new RedisSessionStore(one), new RedisSessionStore(two)];
    const created = session({ logLevel: 'debug' });
    assert.equal(await here.create(created, 10), true);
    assert.deepEqual(await there.get(created.id), created);
    await there.update(created.id, { logLevel: undefined, standaloneStream: `${created.id}/get`, delivered: `${created.id}/get:7` });
    const updated = await here.get(created.id);
    assert.equal(updated?.logLevel, undefined);
    assert.deepEqual([updated?.standaloneStream, updated?.delivered], [`${created.id}/get`, `${created.id}/get:7`]);
    await here.delete(created.id);
    assert.equal(await there.get(created.id), undefined);
  });

  it('holds the caps exactly under concurrency: of 40 racing creates on two replicas, the cap; of 40 racing subscriptions, the cap', async () => {
    const stores = [new RedisSessionStore(one), new RedisSessionStore(two)];
    const callerKey = `caller-${randomUUID()}`;
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2].create(session({ callerKey }), 5)));
    assert.equal(created.filter(Boolean).length, 5);
    const s = session();
    await stores[0].create(s, 10);
    const uris = Array.from({ length: 40 }, (_, i) => `demo://items/${i}`);
    const subscribed = await Promise.all(uris.map((uri, i) => stores[i % 2].subscribe(s.id, uri, 7)));
    assert.equal(subscribed.filter(Boolean).length, 7);
    const subscribers = await Promise.all(uris.map((uri) => stores[1].subscribersOf(uri)));
    assert.equal(subscribers.filter((ids) => ids.includes(s.id)).length, 7);
  });

  it('replays on one replica the events another appended', async () => {
    const sessionId = randomUUID();
    const stream = streamOf(sessionId);
    const first = await new RedisEventStore(one, limits).append(stream, message(1));
    const second = await new RedisEventStore(one, limits).append(stream, message(2));
    assert.deepEqual(await new RedisEventStore(two, limits).replayAfter(first, sessionId), {
      streamId: stream,
      events: [{ id: second, message: message(2) }],
    });
  });

  it('keeps applications with another key prefix apart: their sessions, events and bus never meet', async () => {
    const s = session();
    await new RedisSessionStore(one).create(s, 10);
    assert.equal(await new RedisSessionStore(elsewhere).get(s.id), undefined);
    const id = await new RedisEventStore(one, limits).append(streamOf(s.id), message(1));
    assert.equal(await new RedisEventStore(elsewhere, limits).replayAfter(id, s.id), undefined);
    assert.ok((await one.commands.keys(`${prefix}:session:*`)).length > 0, 'the keys are under the prefix');

    const channel = `test:${randomUUID()}`;
    const heard: unknown[] = [];
    const otherBus = new RedisMessageBus(elsewhere);
    let marked!: () => void;
    const marker = new Promise<void>((resolve) => (marked = resolve));
    const stop = await otherBus.subscribe(channel, (payload) => (payload === 'marker' ? marked() : heard.push(payload)));
    const { payload, ready } = await nextMessage(new RedisMessageBus(two), channel);
    await ready;
    await new RedisMessageBus(one).publish(channel, 'for this application');
    assert.equal(await payload, 'for this application');
    // Published after it: once the other application hears its own marker, it would have heard the first.
    await otherBus.publish(channel, 'marker');
    await marker;
    await stop();
    assert.deepEqual(heard, []);
  });
});
