import type { McpMessageBus } from '../../mcp/index.js';
import type { RedisConnection } from './redis-connection.js';

/**
 * The bus over Redis pub/sub: each bus channel is the Redis channel `<prefix>:bus:<channel>`,
 * subscribed on the dedicated subscriber connection while this replica has a listener on it.
 * At-most-once, as pub/sub is: a replica disconnected at publish time misses the message.
 */
export class RedisMessageBus implements McpMessageBus {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly redis: RedisConnection) {}

  async publish(channel: string, payload: unknown): Promise<void> {
    await this.redis.commands.publish(this.redis.key('bus', channel), JSON.stringify(payload));
  }

  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    const subscriber = await this.redis.subscriberConnection();
    let listeners = this.listeners.get(channel);
    if (!listeners) {
      const created = new Set<(payload: unknown) => void>();
      listeners = created;
      this.listeners.set(channel, created);
      try {
        await subscriber.subscribe(this.redis.key('bus', channel), (text) => {
          let payload: unknown;
          try {
            payload = JSON.parse(text);
          } catch {
            return; // not ours
          }
          for (const listener of [...created]) listener(payload);
        });
      } catch (error) {
        this.listeners.delete(channel);
        throw error;
      }
    }
    const set = listeners;
    const listener = (payload: unknown) => onMessage(payload);
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      if (subscriber.isOpen) await subscriber.unsubscribe(this.redis.key('bus', channel)).catch(() => undefined);
    };
  }
}
