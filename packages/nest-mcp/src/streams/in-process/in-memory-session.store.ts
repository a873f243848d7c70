import type { McpSession } from '../../invocation/mcp-session.js';
import type { McpSessionPatch, McpSessionStore } from '../../contracts/stream-backends.js';

/**
 * Sessions in this process's memory: the default for one replica (sessions die with it).
 * Subscriptions are kept apart from the sessions (a `get` copies only the session), with an index
 * by URI for `subscribersOf`.
 */
export class InMemorySessionStore implements McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();
  /** Session id → its subscribed URIs. */
  private readonly subscriptions = new Map<string, Set<string>>();
  /** URI → the sessions subscribed to it. */
  private readonly subscribers = new Map<string, Set<string>>();

  async create(session: McpSession, maxPerCaller: number): Promise<boolean> {
    this.sweep();
    let open = 0;
    for (const s of this.sessions.values()) if (s.callerKey === session.callerKey) open++;
    if (open >= maxPerCaller) return false;
    this.sessions.set(session.id, structuredClone(session));
    return true;
  }

  async get(id: string): Promise<McpSession | undefined> {
    const session = this.live(id);
    return session && structuredClone(session);
  }

  async update(id: string, patch: McpSessionPatch): Promise<void> {
    const session = this.live(id);
    if (!session) return;
    for (const key of ['logLevel', 'expiresAt', 'standaloneStream', 'delivered'] as const) {
      if (!(key in patch)) continue;
      if (patch[key] === undefined) delete session[key];
      else Object.assign(session, { [key]: structuredClone(patch[key]) });
    }
  }

  async delete(id: string): Promise<void> {
    this.remove(id);
  }

  async subscribe(id: string, uri: string, maxPerSession: number): Promise<boolean> {
    if (!this.live(id)) return false;
    const mine = this.subscriptions.get(id) ?? new Set<string>();
    if (mine.has(uri)) return true;
    if (mine.size >= maxPerSession) return false;
    mine.add(uri);
    this.subscriptions.set(id, mine);
    const sessions = this.subscribers.get(uri) ?? new Set<string>();
    sessions.add(id);
    this.subscribers.set(uri, sessions);
    return true;
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    this.subscriptions.get(id)?.delete(uri);
    this.dropSubscriber(uri, id);
  }

  async subscribersOf(uri: string): Promise<string[]> {
    return [...(this.subscribers.get(uri) ?? [])].filter((id) => this.live(id));
  }

  /** The session when it is known and unexpired; an expired one is removed on sight. */
  private live(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session && session.expiresAt.getTime() <= Date.now()) {
      this.remove(id);
      return undefined;
    }
    return session;
  }

  private remove(id: string): void {
    this.sessions.delete(id);
    for (const uri of this.subscriptions.get(id) ?? []) this.dropSubscriber(uri, id);
    this.subscriptions.delete(id);
  }

  private dropSubscriber(uri: string, id: string): void {
    const sessions = this.subscribers.get(uri);
    sessions?.delete(id);
    if (sessions?.size === 0) this.subscribers.delete(uri);
  }

  /** Expired sessions go when a new one arrives: memory stays bounded by the live ones. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) if (session.expiresAt.getTime() <= now) this.remove(id);
  }
}
