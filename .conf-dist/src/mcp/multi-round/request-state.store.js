export const MCP_REQUEST_STATE_STORE = Symbol('MCP_REQUEST_STATE_STORE');
/** Single-process default: fine for tests and one replica, wrong behind a load balancer. */
export class InMemoryRequestStateStore {
    used = new Map();
    async consume(id, expiresAt) {
        const now = Date.now();
        for (const [key, expiry] of this.used)
            if (expiry < now)
                this.used.delete(key);
        if (this.used.has(id))
            return false;
        this.used.set(id, expiresAt.getTime());
        return true;
    }
}
//# sourceMappingURL=request-state.store.js.map