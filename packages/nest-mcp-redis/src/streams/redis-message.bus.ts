import { type McpMessageBus, MessageBusListeners } from '@nest-mcp/core/extensions';
import type { RedisConnection } from '../connection/redis-connection.js';

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

  /**
   * Resolves once Redis delivers the channel to this replica: a listener added while the
   * channel's SUBSCRIBE is still pending waits for it, and is refused with it if it fails.
   */
  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    const subscriber = await this.redis.subscriberConnection();
    const key = this.redis.key('bus', channel);
    const remove = await this.listeners.listen(channel, onMessage, () => subscriber.subscribe(key, (text) => this.deliver(channel, text)));
    return async () => {
      if (remove() && subscriber.isOpen) await subscriber.unsubscribe(key).catch(() => undefined);
    };
  }

  private deliver(channel: string, text: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return; // not ours
    }
    this.listeners.deliver(channel, payload);
  }
}
