import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidEnvironmentError, readEnvironment } from './environment.js';

describe('readEnvironment', () => {
  it('applies the defaults when nothing is set', () => {
    const environment = readEnvironment({});
    assert.equal(environment.host, '127.0.0.1');
    assert.equal(environment.port, 3000);
    assert.equal(environment.databasePoolSize, 10);
    assert.equal(environment.migrateDatabase, true);
    assert.equal(environment.replicas, 1);
    assert.equal(environment.production, false);
  });

  it('publishes the REST API documentation by default, except in production (API_DOCS)', () => {
    assert.equal(readEnvironment({}).apiDocs, 'public');
    assert.equal(readEnvironment({ NODE_ENV: 'production' }).apiDocs, 'off');
    assert.equal(readEnvironment({ NODE_ENV: 'production', API_DOCS: 'authenticated' }).apiDocs, 'authenticated');
    assert.throws(() => readEnvironment({ API_DOCS: 'yes' }), /API_DOCS must be off, public or authenticated/);
  });

  it('reads typed values', () => {
    const environment = readEnvironment({ PORT: '0', DATABASE_POOL_SIZE: ' 25 ', DATABASE_MIGRATE: 'false', NODE_ENV: 'production' });
    assert.equal(environment.port, 0);
    assert.equal(environment.databasePoolSize, 25);
    assert.equal(environment.migrateDatabase, false);
    assert.equal(environment.production, true);
  });

  it('refuses a value that is not a number, naming the variable and the value (it used to become NaN)', () => {
    assert.throws(
      () => readEnvironment({ DATABASE_POOL_SIZE: 'abc' }),
      (error: Error) =>
        error instanceof InvalidEnvironmentError &&
        /DATABASE_POOL_SIZE must be an integer from 1 to 1000 \(got "abc"\)/.test(error.message),
    );
  });

  it('lists every bad variable at once', () => {
    assert.throws(
      () => readEnvironment({ PORT: '70000', DATABASE_MIGRATE: 'maybe', MCP_DESTRUCTIVE_CONFIRMATION: 'ask' }),
      (error: InvalidEnvironmentError) => {
        assert.deepEqual(
          error.problems.map((problem) => problem.split(' ')[0]),
          ['PORT', 'DATABASE_MIGRATE', 'MCP_DESTRUCTIVE_CONFIRMATION'],
        );
        return true;
      },
    );
  });

  it('reads the run limit of MCP tasks (MCP_TASK_MAX_RUN_MS), unset by default: the layer default applies', () => {
    assert.equal(readEnvironment({}).mcpTaskMaxRunMs, undefined);
    assert.equal(readEnvironment({ MCP_TASK_MAX_RUN_MS: '12000' }).mcpTaskMaxRunMs, 12_000);
    assert.throws(
      () => readEnvironment({ MCP_TASK_MAX_RUN_MS: '500' }),
      /MCP_TASK_MAX_RUN_MS must be an integer ≥ 1000 \(milliseconds\) \(got "500"\)/,
    );
    assert.throws(() => readEnvironment({ MCP_TASK_MAX_RUN_MS: '10m' }), /MCP_TASK_MAX_RUN_MS must be an integer/);
  });

  it('needs a shared MCP_STATE_SECRET for more than one replica, and a long enough one', () => {
    assert.throws(() => readEnvironment({ REPLICAS: '2' }), /REPLICAS=2 needs MCP_STATE_SECRET/);
    assert.throws(() => readEnvironment({ MCP_STATE_SECRET: 'short' }), /MCP_STATE_SECRET must be at least 32 characters/);
    assert.equal(readEnvironment({ REPLICAS: '2', MCP_STATE_SECRET: 'x'.repeat(32) }).replicas, 2);
  });

  it('reads again when a variable changed (tests change them between two apps)', () => {
    const source: NodeJS.ProcessEnv = { DATABASE_RETRY_AFTER_SECONDS: '2' };
    assert.equal(readEnvironment(source).databaseRetryAfterSeconds, 2);
    source.DATABASE_RETRY_AFTER_SECONDS = '7';
    assert.equal(readEnvironment(source).databaseRetryAfterSeconds, 7);
  });
});
