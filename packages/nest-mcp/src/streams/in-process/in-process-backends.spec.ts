import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpSession } from '../../invocation/mcp-session.js';
import { requestStreamId, standaloneStreamId } from '../stream-ids.js';
import { InMemoryEventStore } from './in-memory-event.store.js';
import { InMemorySessionStore } from './in-memory-session.store.js';
import { InProcessMessageBus } from './in-process-message.bus.js';

const session = (id: string, overrides: Partial<McpSession> = {}): McpSession => ({
  id,
  callerKey: 'alice',
  protocolVersion: '2025-06-18',
  clientCapabilities: {},
  createdAt: new Date(),
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});
const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});

describe('InMemorySessionStore', () => {
  it('creates, reads, updates each field and deletes; an expired session reads as unknown', async () => {
    const store = new InMemorySessionStore();
    assert.equal(await store.create(session('s1'), 10), true);
    const later = new Date(Date.now() + 120_000);
    await store.update('s1', { logLevel: 'error', standaloneStream: 's1/get-1', delivered: 'e-1', expiresAt: later });
    const read = await store.get('s1');
    assert.deepEqual(read, {
      ...session('s1'),
      createdAt: read?.createdAt,
      logLevel: 'error',
      standaloneStream: 's1/get-1',
      delivered: 'e-1',
      expiresAt: later,
    });
    assert.equal('subscriptions' in read, false, 'a session read carries no subscriptions');
    read.expiresAt.setTime(0);
    assert.deepEqual((await store.get('s1'))?.expiresAt, later, 'a read is a copy');
    await store.update('s1', { logLevel: undefined, standaloneStream: undefined });
    const cleared = await store.get('s1');
    assert.equal(cleared?.logLevel, undefined);
    assert.equal(cleared?.standaloneStream, undefined);
    assert.equal(cleared?.delivered, 'e-1', 'a field not named in the patch stays');
    await store.update('unknown', { logLevel: 'debug' });
    assert.equal(await store.get('unknown'), undefined);
    await store.delete('s1');
    assert.equal(await store.get('s1'), undefined);
    await store.create(session('old', { expiresAt: new Date(Date.now() - 1) }), 10);
    assert.equal(await store.get('old'), undefined);
  });

  it('refuses a session past maxPerCaller live sessions of its caller; an ended or expired one frees a place', async () => {
    const store = new InMemorySessionStore();
    assert.equal(await store.create(session('a1'), 2), true);
    assert.equal(await store.create(session('a2', { expiresAt: new Date(Date.now() + 50) }), 2), true);
    assert.equal(await store.create(session('a3'), 2), false, 'a third one for alice');
    assert.equal(await store.get('a3'), undefined, 'nothing stored');
    assert.equal(await store.create(session('b1', { callerKey: 'bob' }), 2), true, 'another caller is counted apart');
    await store.delete('a1');
    assert.equal(await store.create(session('a3'), 2), true);
    assert.equal(await store.create(session('a4'), 2), false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(await store.create(session('a4'), 2), true, 'a2 expired');
  });

  it('subscribes up to maxPerSession URIs; subscribersOf finds the live sessions; delete and expiry end subscriptions', async () => {
    const store = new InMemorySessionStore();
    await store.create(session('a'), 10);
    await store.create(session('b'), 10);
    await store.create(session('c', { expiresAt: new Date(Date.now() + 50) }), 10);
    assert.equal(await store.subscribe('a', 'x://1', 2), true);
    assert.equal(await store.subscribe('a', 'x://2', 2), true);
    assert.equal(await store.subscribe('a', 'x://2', 2), true, 'already subscribed');
    assert.equal(await store.subscribe('a', 'x://3', 2), false, 'past the cap');
    assert.equal(await store.subscribe('b', 'x://2', 2), true);
    assert.equal(await store.subscribe('c', 'x://2', 2), true);
    assert.equal(await store.subscribe('unknown', 'x://2', 2), false);
    assert.deepEqual((await store.subscribersOf('x://2')).sort(), ['a', 'b', 'c']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual((await store.subscribersOf('x://2')).sort(), ['a', 'b'], 'c expired');
    assert.equal(await store.subscribe('c', 'x://2', 2), false, 'an expired session cannot subscribe');
    await store.unsubscribe('a', 'x://1');
    assert.deepEqual(await store.subscribersOf('x://1'), []);
    assert.equal(await store.subscribe('a', 'x://3', 2), true, 'unsubscribing frees a place');
    await store.delete('b');
    assert.deepEqual(await store.subscribersOf('x://2'), ['a']);
    assert.deepEqual(await store.subscribersOf('x://9'), []);
  });
});

describe('InMemoryEventStore', () => {
  it('replays the events of the same stream after the given one, for its session only', async () => {
    const store = new InMemoryEventStore();
    const mine = standaloneStreamId('s1');
    const other = requestStreamId('s1', 1);
    const first = await store.append(mine, note(1));
    await store.append(other, note(99));
    const second = await store.append(mine, note(2));
    const replay = await store.replayAfter(first, 's1');
    assert.equal(replay?.streamId, mine);
    assert.deepEqual(replay?.events, [{ id: second, message: note(2) }]);
    assert.equal(await store.replayAfter(first, 's2'), undefined, "another session's event id");
    assert.equal(await store.replayAfter('nope', 's1'), undefined);
  });

  it('lists every retained event of one stream (a backlog), in order', async () => {
    const store = new InMemoryEventStore();
    const backlog = standaloneStreamId('s1');
    const first = await store.append(backlog, note(1));
    await store.append(requestStreamId('s1', 1), note(99));
    const second = await store.append(backlog, note(2));
    assert.deepEqual(await store.eventsOf(backlog), [
      { id: first, message: note(1) },
      { id: second, message: note(2) },
    ]);
    assert.deepEqual(await store.eventsOf(standaloneStreamId('s2')), []);
  });

  it('is bounded: the oldest events go first', async () => {
    const store = new InMemoryEventStore(2);
    const stream = standaloneStreamId('s');
    const first = await store.append(stream, note(1));
    const second = await store.append(stream, note(2));
    await store.append(stream, note(3));
    assert.equal(await store.replayAfter(first, 's'), undefined, 'evicted');
    assert.equal((await store.replayAfter(second, 's'))?.events.length, 1);
  });
});

describe('InProcessMessageBus', () => {
  it('delivers a copy to each subscriber of the channel until it unsubscribes', async () => {
    const bus = new InProcessMessageBus();
    const got: unknown[] = [];
    const stop = await bus.subscribe('c', (payload) => got.push(payload));
    await bus.subscribe('other', () => assert.fail('wrong channel'));
    const payload = { uri: 'x://1' };
    await bus.publish('c', payload);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(got, [payload]);
    assert.notEqual(got[0], payload, 'a copy, as over a network');
    await stop();
    await bus.publish('c', payload);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(got.length, 1);
  });
});
