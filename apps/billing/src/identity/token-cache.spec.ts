import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Principal } from './principal.js';
import { TokenCache, tokenCacheOptionsFromEnv } from './token-cache.js';

const principal = (userId: string): Principal => ({
  userId,
  email: `${userId}@x.test`,
  tokenId: userId,
  kind: 'personal',
  surfaces: ['mcp', 'api'],
  scopes: [],
  memberships: [],
});

describe('verified-token cache', () => {
  it('answers nothing until enabled, and nothing once disabled', () => {
    const cache = new TokenCache({ ttlMs: 1_000, maxEntries: 10 });
    cache.set('d', principal('u'), null, cache.ticket(), 0);
    assert.equal(cache.get('d', 1), undefined);
    cache.enable();
    cache.set('d', principal('u'), null, cache.ticket(), 0);
    assert.equal(cache.get('d', 1)?.userId, 'u');
    cache.disable();
    assert.equal(cache.get('d', 1), undefined);
  });

  it('forgets an entry at its TTL, and at the token expiry when that comes first (exactly)', () => {
    const cache = new TokenCache({ ttlMs: 1_000, maxEntries: 10 });
    cache.enable();
    cache.set('a', principal('a'), null, cache.ticket(), 0);
    assert.ok(cache.get('a', 999));
    assert.equal(cache.get('a', 1_000), undefined);
    cache.set('b', principal('b'), 500, cache.ticket(), 0);
    assert.ok(cache.get('b', 499));
    assert.equal(cache.get('b', 500), undefined);
  });

  it('does not store the answer of a lookup that started before an invalidation', () => {
    const cache = new TokenCache({ ttlMs: 1_000, maxEntries: 10 });
    cache.enable();
    const ticket = cache.ticket();
    cache.clear(); // a revocation arrives while the lookup runs
    cache.set('a', principal('a'), null, ticket, 0);
    assert.equal(cache.get('a', 1), undefined);
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const cache = new TokenCache({ ttlMs: 1_000, maxEntries: 3 });
    cache.enable();
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, principal(key), null, cache.ticket(), 0);
    assert.equal(cache.size, 3);
    assert.equal(cache.get('a', 1), undefined);
    assert.ok(cache.get('d', 1));
  });

  it('refuses a TTL above 1 s (the revocation bound) at boot', () => {
    assert.deepEqual(tokenCacheOptionsFromEnv({}), { ttlMs: 1_000, maxEntries: 10_000 });
    assert.equal(tokenCacheOptionsFromEnv({ TOKEN_CACHE_TTL_MS: '0' }).ttlMs, 0);
    assert.throws(() => tokenCacheOptionsFromEnv({ TOKEN_CACHE_TTL_MS: '5000' }), /within 1 s/);
    assert.throws(() => tokenCacheOptionsFromEnv({ TOKEN_CACHE_MAX_ENTRIES: '0' }), /positive/);
  });
});
