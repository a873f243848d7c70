/**
 * The bus over Redis pub/sub: each bus channel is the Redis channel `<prefix>:bus:<channel>`,
 * subscribed on the dedicated subscriber connection while this replica has a listener on it.
 * At-most-once, as pub/sub is: a replica disconnected at publish time misses the message.
 */
export class RedisMessageBus {
    redis;
    listeners = new Map();
    constructor(redis) {
        this.redis = redis;
    }
    async publish(channel, payload) {
        await this.redis.commands.publish(this.redis.key('bus', channel), JSON.stringify(payload));
    }
    async subscribe(channel, onMessage) {
        const subscriber = await this.redis.subscriberConnection();
        let listeners = this.listeners.get(channel);
        if (!listeners) {
            const created = new Set();
            listeners = created;
            this.listeners.set(channel, created);
            try {
                await subscriber.subscribe(this.redis.key('bus', channel), (text) => {
                    let payload;
                    try {
                        payload = JSON.parse(text);
                    }
                    catch {
                        return; // not ours
                    }
                    for (const listener of [...created])
                        listener(payload);
                });
            }
            catch (error) {
                this.listeners.delete(channel);
                throw error;
            }
        }
        const set = listeners;
        const listener = (payload) => onMessage(payload);
        set.add(listener);
        return async () => {
            set.delete(listener);
            if (set.size || this.listeners.get(channel) !== set)
                return;
            this.listeners.delete(channel);
            if (subscriber.isOpen)
                await subscriber.unsubscribe(this.redis.key('bus', channel)).catch(() => undefined);
        };
    }
}
//# sourceMappingURL=redis-message.bus.js.map