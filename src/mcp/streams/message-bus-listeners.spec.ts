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

  it('forgets a channel whose receiving could not start: a late removal stops nothing', () => {
    const listeners = new MessageBusListeners();
    const { remove } = listeners.add('c', () => assert.fail('forgotten'));
    listeners.forget('c');
    listeners.deliver('c', 1);
    assert.equal(remove(), false);
    assert.equal(listeners.isEmpty, true);
    assert.equal(listeners.add('c', () => undefined).first, true);
  });
});
