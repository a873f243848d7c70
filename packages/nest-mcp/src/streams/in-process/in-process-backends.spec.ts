import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpSession } from '../../contracts/stream-backends.js';
import { newStreamId } from '../stream-ids.js';
import { InMemoryEventStore } from './in-memory-event.store.js';
import { InMemorySessionStore } from './in-memory-session.store.js';
import { InProcessMessageBus } from './in-process-message.bus.js';

const session = (id: string, overrides: Partial<McpSession> = {}): McpSession => ({
  id,
  callerKey: 'alice',
  protocolVersion: '2025-06-18',
  clientCapabilities: {},
  subscriptions: [],
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
  it('creates, reads, updates and deletes; an expired session reads as unknown', async () => {
    const store = new InMemorySessionStore();
    await store.create(session('s1'));
    await store.update('s1', { logLevel: 'error', subscriptions: ['a://1'] });
    const read = await store.get('s1');
    assert.equal(read?.logLevel, 'error');
    assert.deepEqual(read?.subscriptions, ['a://1']);
    read.subscriptions.push('mutated');
    assert.deepEqual((await store.get('s1'))?.subscriptions, ['a://1'], 'a read is a copy');
    await store.update('unknown', { logLevel: 'debug' });
    assert.equal(await store.get('unknown'), undefined);
    await store.delete('s1');
    assert.equal(await store.get('s1'), undefined);
    await store.create(session('old', { expiresAt: new Date(Date.now() - 1) }));
    assert.equal(await store.get('old'), undefined);
  });

  it('finds the live sessions subscribed to a URI', async () => {
    const store = new InMemorySessionStore();
    await store.create(session('a', { subscriptions: ['x://1', 'x://2'] }));
    await store.create(session('b', { subscriptions: ['x://2'] }));
    await store.create(session('c', { subscriptions: ['x://2'], expiresAt: new Date(Date.now() - 1) }));
    assert.deepEqual((await store.subscribersOf('x://2')).sort(), ['a', 'b']);
    assert.deepEqual(await store.subscribersOf('x://3'), []);
  });
});

describe('InMemoryEventStore', () => {
  it('replays the events of the same stream after the given one, for its session only', async () => {
    const store = new InMemoryEventStore();
    const mine = newStreamId('s1', 'get');
    const other = newStreamId('s1', 'post');
    const first = await store.append(mine, note(1));
    await store.append(other, note(99));
    const second = await store.append(mine, note(2));
    const replay = await store.replayAfter(first, 's1');
    assert.equal(replay?.streamId, mine);
    assert.deepEqual(replay?.events, [{ id: second, message: note(2) }]);
    assert.equal(await store.replayAfter(first, 's2'), undefined, "another session's event id");
    assert.equal(await store.replayAfter('nope', 's1'), undefined);
  });

  it('is bounded: the oldest events go first', async () => {
    const store = new InMemoryEventStore(2);
    const stream = newStreamId('s', 'get');
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
