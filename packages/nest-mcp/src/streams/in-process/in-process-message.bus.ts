import { AsyncLocalStorage } from 'node:async_hooks';
import { MessageBusListeners } from '../message-bus-listeners.js';
import type { McpMessageBus } from '../../contracts/stream-backends.js';

/** Publish/subscribe inside this process: the default for one replica. Delivery is asynchronous, as on Redis. */
export class InProcessMessageBus implements McpMessageBus {
  private readonly listeners = new MessageBusListeners();
  /**
   * Listeners run in the async context the bus was created in (no request's), as a message from
   * the network would: a listener must not find itself inside the publisher's request or transaction.
   */
  private readonly detached = AsyncLocalStorage.snapshot();

  async publish(channel: string, payload: unknown): Promise<void> {
    const listeners = this.listeners.of(channel);
    if (!listeners.length) return;
    // A copy, as a message crossing a network would be: a subscriber cannot alter the publisher's object.
    const copy = structuredClone(payload);
    for (const listener of listeners) queueMicrotask(() => this.detached(() => listener(copy)));
  }

  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    const { remove } = this.listeners.add(channel, onMessage);
    return async () => {
      remove();
    };
  }
}
