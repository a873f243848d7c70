import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatabaseUnavailableException } from './database-unavailable.js';
import { databaseUnavailableExtension } from './database-unavailable.extension.js';

type AllOperations = (params: { args: unknown; query: (args: unknown) => Promise<unknown> }) => Promise<unknown>;

/** The extension's hook, called as Prisma calls it around every operation of the client. */
function hook(retryAfterSeconds: number): AllOperations {
  let definition: { query: { $allOperations: AllOperations } } | undefined;
  (databaseUnavailableExtension({ retryAfterSeconds }) as unknown as (client: unknown) => unknown)({
    $extends: (given: typeof definition) => (definition = given),
  });
  return definition!.query.$allOperations;
}

describe('databaseUnavailableExtension', () => {
  it("turns a query that finds the database unreachable into a 503 with the unit of work's Retry-After", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const failure: unknown = await hook(9)({ args: {}, query: () => Promise.reject(refused) }).catch((error: unknown) => error);
    assert.ok(failure instanceof DatabaseUnavailableException);
    assert.deepEqual([failure.getStatus(), failure.headers], [503, { 'Retry-After': '9' }]);
  });

  it('lets every other error and every answer through unchanged', async () => {
    const unique = Object.assign(new Error('Unique constraint failed'), { code: 'P2002' });
    await assert.rejects(hook(9)({ args: {}, query: () => Promise.reject(unique) }), (error) => error === unique);
    assert.deepEqual(await hook(9)({ args: { id: 1 }, query: async (args) => args }), { id: 1 });
  });
});
