import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { PrismaService } from '../database/prisma.service.js';
import type { Prisma } from '../generated/prisma/client.js';
import { PersonalTokenService } from './personal-token.service.js';
import { generateTokenSecret } from './token-secret.js';

/**
 * Token checks take no time that depends on the secret: a presented token is never compared with
 * a stored one. Its SHA-256 is looked up by a unique index, so the database only ever compares
 * digests (which say nothing about the secret), and the secret itself never leaves the process.
 */
describe('personal token check', () => {
  it('looks the token up by its SHA-256 only: no comparison of secrets, no secret in the query', async () => {
    // Each query as its SQL text and its bound values (the lookup is one $queryRaw of a Prisma.sql statement).
    const queries: Array<{ sql: string; values: unknown[] }> = [];
    const prisma = {
      client: {
        $queryRaw: async (query: Prisma.Sql) => {
          queries.push({ sql: query.strings.join('?'), values: query.values });
          return [];
        },
      },
    } as unknown as PrismaService;
    const tokens = new PersonalTokenService(prisma, { viewer: [], accountant: [], admin: [] });
    const token = generateTokenSecret();

    assert.deepEqual(await tokens.check(token), { ok: false, reason: 'The access token is not valid' });
    assert.equal(queries.length, 1);
    assert.match(queries[0].sql, /WHERE t\.token_hash = \?/);
    assert.deepEqual(queries[0].values, [createHash('sha256').update(token).digest('hex')]);
    assert.ok(!JSON.stringify(queries[0]).includes(token.slice('mcp_pat_'.length, 20)));

    // A wrong token of any length or shape takes the same path: one indexed lookup of a digest.
    for (const wrong of ['', 'x', `${token}x`, token.slice(0, -1), 'mcp_pat_' + 'A'.repeat(500)]) {
      await tokens.check(wrong);
    }
    assert.equal(queries.length, 6);
    for (const query of queries) {
      assert.equal(query.values.length, 1);
      assert.match(String(query.values[0]), /^[0-9a-f]{64}$/);
    }
  });
});
