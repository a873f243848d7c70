import type { McpSession, McpSessionStore } from '../../contracts/stream-backends.js';

/** Sessions in this process's memory: the default for one replica (sessions die with it). */
export class InMemorySessionStore implements McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();

  async create(session: McpSession): Promise<void> {
    this.sweep();
    this.sessions.set(session.id, structuredClone(session));
  }

  async get(id: string): Promise<McpSession | undefined> {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt.getTime() <= Date.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return structuredClone(session);
  }

  async update(id: string, patch: Partial<Pick<McpSession, 'logLevel' | 'subscriptions' | 'expiresAt'>>): Promise<void> {
    const session = this.sessions.get(id);
    if (session) Object.assign(session, structuredClone(patch));
  }

  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
  }

  async subscribersOf(uri: string): Promise<string[]> {
    const now = Date.now();
    return [...this.sessions.values()].filter((s) => s.expiresAt.getTime() > now && s.subscriptions.includes(uri)).map((s) => s.id);
  }

  /** Expired sessions go when a new one arrives: memory stays bounded by the live ones. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) if (session.expiresAt.getTime() <= now) this.sessions.delete(id);
  }
}
