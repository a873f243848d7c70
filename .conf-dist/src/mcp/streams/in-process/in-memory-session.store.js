/** Sessions in this process's memory: the default for one replica (sessions die with it). */
export class InMemorySessionStore {
    sessions = new Map();
    async create(session) {
        this.sweep();
        this.sessions.set(session.id, structuredClone(session));
    }
    async get(id) {
        const session = this.sessions.get(id);
        if (!session)
            return undefined;
        if (session.expiresAt.getTime() <= Date.now()) {
            this.sessions.delete(id);
            return undefined;
        }
        return structuredClone(session);
    }
    async update(id, patch) {
        const session = this.sessions.get(id);
        if (session)
            Object.assign(session, structuredClone(patch));
    }
    async delete(id) {
        this.sessions.delete(id);
    }
    async subscribersOf(uri) {
        const now = Date.now();
        return [...this.sessions.values()].filter((s) => s.expiresAt.getTime() > now && s.subscriptions.includes(uri)).map((s) => s.id);
    }
    /** Expired sessions go when a new one arrives: memory stays bounded by the live ones. */
    sweep() {
        const now = Date.now();
        for (const [id, session] of this.sessions)
            if (session.expiresAt.getTime() <= now)
                this.sessions.delete(id);
    }
}
//# sourceMappingURL=in-memory-session.store.js.map