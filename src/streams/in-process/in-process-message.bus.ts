import type { McpMessageBus } from '../../mcp/streams/stream-backends.js';

/**
 * Publish/subscribe inside this process, for the embedded database: PGlite cannot deliver a
 * NOTIFY to another connection, and an app on it is one process anyway. Delivery is asynchronous
 * and the payload a copy, as over a network.
 */
export class InProcessMessageBus implements McpMessageBus {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  async publish(channel: string, payload: unknown): Promise<void> {
    const listeners = this.listeners.get(channel);
    if (!listeners) return;
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
      if (!listeners.size && this.listeners.get(channel) === listeners) this.listeners.delete(channel);
    };
  }
}
