import type { McpMessageBus } from '../stream-backends.js';

/** Publish/subscribe inside this process: the default for one replica. Delivery is asynchronous, as on Redis. */
export class InProcessMessageBus implements McpMessageBus {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  async publish(channel: string, payload: unknown): Promise<void> {
    const listeners = this.listeners.get(channel);
    if (!listeners) return;
    // A copy, as a message crossing a network would be: a subscriber cannot alter the publisher's object.
    const copy = structuredClone(payload);
    for (const listener of [...listeners]) queueMicrotask(() => listener(copy));
  }

  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    let listeners = this.listeners.get(channel);
    if (!listeners) this.listeners.set(channel, (listeners = new Set()));
    const listener = (payload: unknown) => onMessage(payload);
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(channel) === listeners) this.listeners.delete(channel);
    };
  }
}
