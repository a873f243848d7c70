import type { Principal } from './principal.js';

/** Longest time a verified token is answered from memory: the revocation bound stated in the README. */
export const MAX_TOKEN_CACHE_TTL_MS = 1_000;
const DEFAULT_MAX_ENTRIES = 10_000;

/** The token cache's settings from the environment (injected by {@link TOKEN_CACHE_OPTIONS}), validated at boot. */
export interface TokenCacheOptions {
  /** TOKEN_CACHE_TTL_MS: 0 turns the cache off; at most {@link MAX_TOKEN_CACHE_TTL_MS}. */
  ttlMs: number;
  /** TOKEN_CACHE_MAX_ENTRIES: beyond it the oldest entry goes (memory stays bounded). */
  maxEntries: number;
}

export const TOKEN_CACHE_OPTIONS = Symbol('TOKEN_CACHE_OPTIONS');

/** `TOKEN_CACHE_TTL_MS` (default and most {@link MAX_TOKEN_CACHE_TTL_MS}) and `TOKEN_CACHE_MAX_ENTRIES` (default 10 000). */
export function tokenCacheOptionsFromEnv(env: NodeJS.ProcessEnv): TokenCacheOptions {
  const ttlMs = env.TOKEN_CACHE_TTL_MS ? Number(env.TOKEN_CACHE_TTL_MS) : MAX_TOKEN_CACHE_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs < 0 || ttlMs > MAX_TOKEN_CACHE_TTL_MS) {
    throw new Error(
      `TOKEN_CACHE_TTL_MS must be an integer from 0 (no cache) to ${MAX_TOKEN_CACHE_TTL_MS}: a revoked token must stop working within 1 s on every replica`,
    );
  }
  const maxEntries = env.TOKEN_CACHE_MAX_ENTRIES ? Number(env.TOKEN_CACHE_MAX_ENTRIES) : DEFAULT_MAX_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error('TOKEN_CACHE_MAX_ENTRIES must be a positive integer');
  return { ttlMs, maxEntries };
}

interface Entry {
  principal: Principal;
  /** Token expiry (epoch ms), or null: checked on every hit, so expiry stays exact. */
  tokenExpiresAt: number | null;
  /** Entry expiry (epoch ms): the TTL bound. */
  staleAt: number;
}

/**
 * Verified personal tokens, by SHA-256 digest (never the secret), for at most `ttlMs`. It answers
 * only while {@link enable}d: the identity-change listener enables it once it hears the database's
 * change notifications, and disables (and empties) it when it stops hearing them; every change to
 * what a token grants empties it on every replica (see the identity_changed migration). So a
 * revoke is honoured at once where the notification arrives, and within `ttlMs` in any case.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private enabled = false;
  /** Bumped by every invalidation: a lookup that started before one must not store its answer. */
  private generation = 0;

  constructor(private readonly options: TokenCacheOptions) {}

  get active(): boolean {
    return this.enabled && this.options.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  enable(): void {
    this.clear();
    this.enabled = true;
  }

  disable(): void {
    this.enabled = false;
    this.clear();
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** A token for {@link set}: ties the answer of a lookup to the cache state when it started. */
  ticket(): number {
    return this.generation;
  }

  get(digest: string, now = Date.now()): Principal | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (now >= entry.staleAt || (entry.tokenExpiresAt !== null && now >= entry.tokenExpiresAt)) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.principal;
  }

  set(digest: string, principal: Principal, tokenExpiresAt: number | null, ticket: number, now = Date.now()): void {
    if (!this.active || ticket !== this.generation) return;
    this.entries.delete(digest);
    if (this.entries.size >= this.options.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(digest, { principal, tokenExpiresAt, staleAt: now + this.options.ttlMs });
  }
}
