import { MessageBusListeners, type McpMessageBus } from '../../mcp/index.js';
import type { RedisConnection } from './redis-connection.js';

/**
 * The bus over Redis pub/sub: each bus channel is the Redis channel `<prefix>:bus:<channel>`,
 * subscribed on the dedicated subscriber connection while this replica has a listener on it.
 * At-most-once, as pub/sub is: a replica disconnected at publish time misses the message.
 */
export class RedisMessageBus implements McpMessageBus {
  private readonly listeners = new MessageBusListeners();

  constructor(private readonly redis: RedisConnection) {}

  async publish(channel: string, payload: unknown): Promise<void> {
    await this.redis.commands.publish(this.redis.key('bus', channel), JSON.stringify(payload));
  }

  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    const subscriber = await this.redis.subscriberConnection();
    const key = this.redis.key('bus', channel);
    const { first, remove } = this.listeners.add(channel, onMessage);
    if (first) {
      try {
        await subscriber.subscribe(key, (text) => {
          let payload: unknown;
          try {
            payload = JSON.parse(text);
          } catch {
            return; // not ours
          }
          this.listeners.deliver(channel, payload);
        });
      } catch (error) {
        this.listeners.forget(channel);
        throw error;
      }
    }
    return async () => {
      if (remove() && subscriber.isOpen) await subscriber.unsubscribe(key).catch(() => undefined);
    };
  }
}
