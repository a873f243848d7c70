/**
 * Remembers which `requestState` values were already accepted, so each is accepted once. In a
 * deployment of several replicas this must be shared (the application gives a database-backed
 * store as the `requestStateStore` option); the default below only holds for a single process.
 */
export interface McpRequestStateStore {
  /**
   * Records `id` as used; false when it was used before. Must be atomic across replicas. A store
   * may tie the use to the call being served, so that a call that fails and rolls back frees the
   * state for a retry; with `final` the use must stick whatever happens to that call (a declined
   * confirmation answers an error, which rolls the call back, yet its state must stay spent).
   */
  consume(id: string, expiresAt: Date, options?: { final?: boolean }): Promise<boolean>;
}

export const MCP_REQUEST_STATE_STORE = Symbol('MCP_REQUEST_STATE_STORE');

/** Single-process default: fine for tests and one replica, wrong behind a load balancer. */
export class InMemoryRequestStateStore implements McpRequestStateStore {
  private readonly used = new Map<string, number>();

  async consume(id: string, expiresAt: Date): Promise<boolean> {
    const now = Date.now();
    for (const [key, expiry] of this.used) if (expiry < now) this.used.delete(key);
    if (this.used.has(id)) return false;
    this.used.set(id, expiresAt.getTime());
    return true;
  }
}
