/**
 * Publish/subscribe inside this process, for the embedded database: PGlite cannot deliver a
 * NOTIFY to another connection, and an app on it is one process anyway. Delivery is asynchronous
 * and the payload a copy, as over a network.
 */
export class InProcessMessageBus {
    listeners = new Map();
    async publish(channel, payload) {
        const listeners = this.listeners.get(channel);
        if (!listeners)
            return;
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
            if (!listeners.size && this.listeners.get(channel) === listeners)
                this.listeners.delete(channel);
        };
    }
}
//# sourceMappingURL=in-process-message.bus.js.map