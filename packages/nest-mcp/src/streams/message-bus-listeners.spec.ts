import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageBusListeners } from './message-bus-listeners.js';

describe('MessageBusListeners', () => {
  it('tells the first listener of a channel and the removal of its last one', () => {
    const listeners = new MessageBusListeners();
    const a = listeners.add('c', () => undefined);
    const b = listeners.add('c', () => undefined);
    assert.deepEqual([a.first, b.first, listeners.add('other', () => undefined).first], [true, false, true]);
    assert.equal(a.remove(), false, 'b still listens');
    assert.equal(b.remove(), true, 'the channel has none left');
    assert.equal(listeners.of('c').length, 0);
    assert.equal(listeners.isEmpty, false, '"other" still has one');
  });

  it('delivers to the listeners of the channel only, one per subscription of the same function', () => {
    const listeners = new MessageBusListeners();
    const got: unknown[] = [];
    const push = (payload: unknown) => got.push(payload);
    const first = listeners.add('c', push);
    listeners.add('c', push);
    listeners.add('other', () => assert.fail('wrong channel'));
    listeners.deliver('c', 1);
    first.remove();
    listeners.deliver('c', 2);
    assert.deepEqual(got, [1, 1, 2]);
  });

  it('starts a channel once: a listener added while the start is pending waits for it', async () => {
    const listeners = new MessageBusListeners();
    let starts = 0;
    let started!: () => void;
    const start = () => {
      starts++;
      return new Promise<void>((resolve) => (started = resolve));
    };
    let secondReady = false;
    const first = listeners.listen('c', () => undefined, start);
    const second = listeners.listen('c', () => undefined, start).then((remove) => ((secondReady = true), remove));
    await Promise.resolve();
    assert.equal(secondReady, false, 'not ready before the start is');
    started();
    const [removeFirst, removeSecond] = await Promise.all([first, second]);
    assert.equal(starts, 1);
    assert.equal(removeFirst(), false);
    assert.equal(removeSecond(), true);
  });

  it('a failed start refuses every listener that waited for it and drops the channel; the next one starts again', async () => {
    const listeners = new MessageBusListeners();
    const heard: unknown[] = [];
    let fail!: (error: Error) => void;
    const failing = () => new Promise<void>((_, reject) => (fail = reject));
    const waiting = [listeners.listen('c', (p) => heard.push(p), failing), listeners.listen('c', (p) => heard.push(p), failing)];
    fail(new Error('refused'));
    const results = await Promise.allSettled(waiting);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    listeners.deliver('c', 1);
    assert.deepEqual(heard, []);
    assert.equal(listeners.isEmpty, true);
    const remove = await listeners.listen(
      'c',
      () => undefined,
      () => Promise.resolve(),
    );
    assert.equal(remove(), true);
  });
});
