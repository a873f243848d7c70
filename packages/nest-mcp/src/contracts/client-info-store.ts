import type { Implementation } from '@modelcontextprotocol/server';

/**
 * What each caller's handshake-era client said about itself in its last `initialize`
 * (`params.clientInfo`: name and version, already checked), by caller (the `callerKey` option).
 * Stateless mode only (the default): a 2025-era client names itself in `initialize` only, and
 * without a session its later requests say nothing, so the layer recalls the name here for them
 * (audit rows, approval pages). Any replica may answer any request: behind a load balancer this
 * must be shared (the application gives a database-backed store as the `clientInfoStore`
 * option); the default below holds for a single process. Each replica keeps what it recalled
 * for a few seconds, so `recall` is not called on every request.
 */
export interface McpClientInfoStore {
  /** Keeps `info` as the caller's client, replacing what was kept before. */
  remember(callerKey: string, info: Implementation): Promise<void>;
  /** The caller's client as last remembered; undefined when none was. */
  recall(callerKey: string): Promise<Implementation | undefined>;
}

export const MCP_CLIENT_INFO_STORE = Symbol('MCP_CLIENT_INFO_STORE');

/** How many callers the in-memory default keeps: past it, the one remembered longest ago goes. */
export const IN_MEMORY_CLIENT_INFO_CALLERS = 10_000;

/** Single-process default: fine for tests and one replica, wrong behind a load balancer. */
export class InMemoryClientInfoStore implements McpClientInfoStore {
  /** In the order they were last remembered (a Map keeps insertion order): the oldest first. */
  private readonly infos = new Map<string, Implementation>();

  async remember(callerKey: string, info: Implementation): Promise<void> {
    this.infos.delete(callerKey);
    this.infos.set(callerKey, { ...info });
    if (this.infos.size > IN_MEMORY_CLIENT_INFO_CALLERS) this.infos.delete(this.infos.keys().next().value!);
  }

  async recall(callerKey: string): Promise<Implementation | undefined> {
    const info = this.infos.get(callerKey);
    return info ? { ...info } : undefined;
  }
}
