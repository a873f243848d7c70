import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoModeFromEnv } from './demo-mode.js';

describe('demoModeFromEnv', () => {
  it('defaults to on for the embedded database, also in production', () => {
    assert.equal(demoModeFromEnv({}), true);
    assert.equal(demoModeFromEnv({ NODE_ENV: 'production' }), true);
  });

  it('defaults to on for a DATABASE_URL outside production (the dev and test loop) and off in production', () => {
    assert.equal(demoModeFromEnv({ DATABASE_URL: 'postgresql://db/app', NODE_ENV: 'test' }), true);
    assert.equal(demoModeFromEnv({ DATABASE_URL: 'postgresql://db/app' }), true);
    assert.equal(demoModeFromEnv({ DATABASE_URL: 'postgresql://db/app', NODE_ENV: 'production' }), false);
  });

  it('DEMO=true|false overrides the default (any on/off spelling)', () => {
    assert.equal(demoModeFromEnv({ DEMO: 'true', DATABASE_URL: 'postgresql://db/app', NODE_ENV: 'production' }), true);
    assert.equal(demoModeFromEnv({ DEMO: 'false' }), false);
    assert.equal(demoModeFromEnv({ DEMO: 'FALSE' }), false);
    assert.equal(demoModeFromEnv({ DEMO: 'off' }), false);
    assert.equal(demoModeFromEnv({ DEMO: ' ' }), true);
  });

  it('refuses any other DEMO value, naming the variable', () => {
    for (const value of ['maybe', 'y', 'enabled', 'truee']) {
      assert.throws(() => demoModeFromEnv({ DEMO: value }), new RegExp(`DEMO must be true or false \\(.*on/off.*\\), got "${value}"$`));
    }
  });
});
