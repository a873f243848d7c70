/** Publish/subscribe inside this process: the default for one replica. Delivery is asynchronous, as on Redis. */
export class InProcessMessageBus {
    listeners = new Map();
    async publish(channel, payload) {
        const listeners = this.listeners.get(channel);
        if (!listeners)
            return;
        // A copy, as a message crossing a network would be: a subscriber cannot alter the publisher's object.
        const copy = structuredClone(payload);
        for (const listener of [...listeners])
            queueMicrotask(() => listener(copy));
    }
    async subscribe(channel, onMessage) {
        let listeners = this.listeners.get(channel);
        if (!listeners)
            this.listeners.set(channel, (listeners = new Set()));
        const listener = (payload) => onMessage(payload);
        listeners.add(listener);
        return async () => {
            listeners.delete(listener);
            if (listeners.size === 0 && this.listeners.get(channel) === listeners)
                this.listeners.delete(channel);
        };
    }
}
//# sourceMappingURL=in-process-message.bus.js.map