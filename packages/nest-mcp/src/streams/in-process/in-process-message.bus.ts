import { MessageBusListeners } from '../message-bus-listeners.js';
import type { McpMessageBus } from '../../contracts/stream-backends.js';

/** Publish/subscribe inside this process: the default for one replica. Delivery is asynchronous, as on Redis. */
export class InProcessMessageBus implements McpMessageBus {
  private readonly listeners = new MessageBusListeners();

  async publish(channel: string, payload: unknown): Promise<void> {
    const listeners = this.listeners.of(channel);
    if (!listeners.length) return;
    // A copy, as a message crossing a network would be: a subscriber cannot alter the publisher's object.
    const copy = structuredClone(payload);
    for (const listener of listeners) queueMicrotask(() => listener(copy));
  }

  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    const { remove } = this.listeners.add(channel, onMessage);
    return async () => {
      remove();
    };
  }
}
