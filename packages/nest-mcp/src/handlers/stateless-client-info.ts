import type { Implementation } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_CLIENT_INFO_STORE, type McpClientInfoStore } from '../contracts/client-info-store.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';

/** How long a replica trusts what it recalled (or remembered) before asking the store again. */
export const CLIENT_INFO_CACHE_TTL_MS = 30_000;
/** How many callers a replica keeps in that cache: past it, the one cached longest ago goes. */
export const CLIENT_INFO_CACHE_CALLERS = 10_000;

/**
 * Whether a request must recall its client: handshake era, no session, no clientInfo of its own,
 * and not `initialize` (which names it) or `ping` (which reads nothing). A 2026-07-28 request
 * carries its own in `_meta` and never pays for this.
 */
export function recallsClientInfo(context: McpRequestContext): boolean {
  return (
    context.era === 'handshake' && !context.clientInfo && !context.session && context.method !== 'initialize' && context.method !== 'ping'
  );
}

interface Cached {
  info: Promise<Implementation | undefined>;
  expiresAt: number;
}

/**
 * Stateless mode, handshake era: what a caller's client said in `initialize`, kept through the
 * `clientInfoStore` extension point (shared by replicas) by caller (`callerKey`), and recalled for
 * its later requests, which say nothing about their client. A caller without credentials (no
 * `callerKey`) is not remembered: anonymous callers cannot be told apart.
 *
 * In front of the store, a small per-process cache (`CLIENT_INFO_CACHE_TTL_MS`), misses included,
 * so the hot path asks the store at most once per caller and period; concurrent requests of a
 * caller share one recall. A client that renamed itself on another replica is seen here within that
 * period. The name is descriptive only (audit rows, approval pages; never an authorization): a store
 * that fails is logged and the request goes on without a client name.
 */
@Injectable()
export class StatelessClientInfo {
  private readonly logger = new Logger('McpClientInfo');
  /** By caller, in the order cached (a Map keeps insertion order): the oldest first. */
  private readonly cache = new Map<string, Cached>();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_CLIENT_INFO_STORE) private readonly store: McpClientInfoStore,
  ) {}

  /** After a stateless `initialize` that named its client. */
  async remember(request: Request, info: Implementation): Promise<void> {
    const callerKey = this.options.callerKey(request);
    if (!callerKey) return;
    this.cached(callerKey, Promise.resolve(info));
    try {
      await this.store.remember(callerKey, info);
    } catch (error) {
      this.logger.warn(`clientInfoStore.remember failed (this replica still knows the client): ${(error as Error).message}`);
    }
  }

  /** The client the request's caller named in its last `initialize`, if any. */
  recall(request: Request): Promise<Implementation | undefined> {
    const callerKey = this.options.callerKey(request);
    if (!callerKey) return Promise.resolve(undefined);
    const hit = this.cache.get(callerKey);
    if (hit && hit.expiresAt > Date.now()) return hit.info;
    const info: Promise<Implementation | undefined> = new Promise<Implementation | undefined>((resolve) =>
      resolve(this.store.recall(callerKey)),
    ).catch((error: unknown) => {
      // Not kept: the next request asks again.
      if (this.cache.get(callerKey)?.info === info) this.cache.delete(callerKey);
      this.logger.warn(`clientInfoStore.recall failed (the request goes on without a client name): ${(error as Error).message}`);
      return undefined;
    });
    this.cached(callerKey, info);
    return info;
  }

  private cached(callerKey: string, info: Cached['info']): void {
    this.cache.delete(callerKey);
    this.cache.set(callerKey, { info, expiresAt: Date.now() + CLIENT_INFO_CACHE_TTL_MS });
    if (this.cache.size > CLIENT_INFO_CACHE_CALLERS) this.cache.delete(this.cache.keys().next().value!);
  }
}
