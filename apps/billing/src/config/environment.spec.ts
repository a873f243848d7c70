import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coreConfigFromEnv, InvalidEnvironmentError } from './environment.js';

describe('coreConfigFromEnv', () => {
  it('applies the defaults when nothing is set', () => {
    const config = coreConfigFromEnv({});
    assert.equal(config.server.host, '127.0.0.1');
    assert.equal(config.server.port, 3000);
    assert.equal(config.database.poolSize, 10);
    assert.equal(config.database.migrate, true);
    assert.equal(config.database.retryAfterSeconds, 5);
    assert.equal(config.server.replicas, 1);
    assert.equal(config.server.production, false);
  });

  it('publishes the REST API documentation by default, except in production (API_DOCS)', () => {
    assert.equal(coreConfigFromEnv({}).server.apiDocs, 'public');
    assert.equal(coreConfigFromEnv({ NODE_ENV: 'production' }).server.apiDocs, 'off');
    assert.equal(coreConfigFromEnv({ NODE_ENV: 'production', API_DOCS: 'authenticated' }).server.apiDocs, 'authenticated');
    assert.throws(() => coreConfigFromEnv({ API_DOCS: 'yes' }), /API_DOCS must be off, public or authenticated/);
  });

  it('reads typed values', () => {
    const config = coreConfigFromEnv({ PORT: '0', DATABASE_POOL_SIZE: ' 25 ', DATABASE_MIGRATE: 'false', NODE_ENV: 'production' });
    assert.equal(config.server.port, 0);
    assert.equal(config.database.poolSize, 25);
    assert.equal(config.database.migrate, false);
    assert.equal(config.server.production, true);
  });

  it('sends hot reads as prepared statements unless DATABASE_PREPARED_STATEMENTS says no (a pooler that drops them)', () => {
    assert.equal(coreConfigFromEnv({}).database.preparedStatements, true);
    assert.equal(coreConfigFromEnv({ DATABASE_PREPARED_STATEMENTS: 'false' }).database.preparedStatements, false);
    assert.throws(() => coreConfigFromEnv({ DATABASE_PREPARED_STATEMENTS: 'sometimes' }), /DATABASE_PREPARED_STATEMENTS/);
  });

  it('refuses a value that is not a number, naming the variable and the value (it used to become NaN)', () => {
    assert.throws(
      () => coreConfigFromEnv({ DATABASE_POOL_SIZE: 'abc' }),
      (error: Error) =>
        error instanceof InvalidEnvironmentError &&
        /DATABASE_POOL_SIZE must be an integer from 1 to 1000 \(got "abc"\)/.test(error.message),
    );
  });

  it('lists every bad variable at once', () => {
    assert.throws(
      () => coreConfigFromEnv({ PORT: '70000', DATABASE_MIGRATE: 'maybe', MCP_DESTRUCTIVE_CONFIRMATION: 'ask' }),
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
    assert.equal(coreConfigFromEnv({}).mcp.taskMaxRunMs, undefined);
    assert.equal(coreConfigFromEnv({ MCP_TASK_MAX_RUN_MS: '12000' }).mcp.taskMaxRunMs, 12_000);
    assert.throws(
      () => coreConfigFromEnv({ MCP_TASK_MAX_RUN_MS: '500' }),
      /MCP_TASK_MAX_RUN_MS must be an integer ≥ 1000 \(milliseconds\) \(got "500"\)/,
    );
    assert.throws(() => coreConfigFromEnv({ MCP_TASK_MAX_RUN_MS: '10m' }), /MCP_TASK_MAX_RUN_MS must be an integer/);
  });

  it('needs a shared MCP_STATE_SECRET for more than one replica, and a long enough one', () => {
    assert.throws(() => coreConfigFromEnv({ REPLICAS: '2' }), /REPLICAS=2 needs MCP_STATE_SECRET/);
    assert.throws(() => coreConfigFromEnv({ MCP_STATE_SECRET: 'short' }), /MCP_STATE_SECRET must be at least 32 characters/);
    assert.equal(coreConfigFromEnv({ REPLICAS: '2', MCP_STATE_SECRET: 'x'.repeat(32) }).server.replicas, 2);
  });

  it('reads the environment it is given, and only when called (nothing is read when a module is imported)', () => {
    const env: NodeJS.ProcessEnv = { DATABASE_RETRY_AFTER_SECONDS: '2' };
    assert.equal(coreConfigFromEnv(env).database.retryAfterSeconds, 2);
    env.DATABASE_RETRY_AFTER_SECONDS = '7';
    assert.equal(coreConfigFromEnv(env).database.retryAfterSeconds, 7);
  });
});
