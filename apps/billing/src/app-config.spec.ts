import 'reflect-metadata';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadAppConfig } from './app-config.js';
import { AppConfigModule } from './app-config.module.js';
import { CORE_CONFIG, InvalidEnvironmentError, type CoreConfig } from './config/environment.js';
import { DATABASE_CONFIG } from './database/database.config.js';
import { IDENTITY_SETTINGS } from './identity/identity.config.js';
import { TOKEN_CACHE_OPTIONS } from './identity/token-cache.js';
import { RATE_LIMIT_CONFIG } from './rate-limit/rate-limit.config.js';

/** Every variable `loadAppConfig` looks at, recorded by reading an empty environment. */
function variablesRead(): string[] {
  const names = new Set<string>();
  const empty: NodeJS.ProcessEnv = {};
  const env = new Proxy(empty, {
    get: (target, name) => {
      if (typeof name === 'string') names.add(name);
      return Reflect.get(target, name);
    },
  });
  loadAppConfig(env);
  return [...names];
}

describe('loadAppConfig', () => {
  it('reads only the environment it is given: the variables of every feature, the core ones among them', () => {
    const names = variablesRead();
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'PUBLIC_URL',
      'TOKEN_CACHE_TTL_MS',
      'RATE_LIMIT_DISABLED',
      'TASK_WORKERS',
      'DEMO',
      'LOG_FORMAT',
    ]) {
      assert.ok(names.includes(name), `${name} is read (got ${names.join(', ')})`);
    }
  });

  it('names every variable it reads in docs/configuration.md (the table of variables stays true)', () => {
    const documentation = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    const undocumented = variablesRead().filter((name) => !documentation.includes(`\`${name}\``));
    assert.deepEqual(undocumented, []);
  });

  it('applies the defaults of the core sections and of every feature when nothing is set', () => {
    const config = loadAppConfig({});
    assert.equal(config.server.port, 3000);
    assert.equal(config.database.poolSize, 10);
    assert.equal(config.identity.jwksCooldownMs, 30_000);
    assert.equal(config.rateLimit.tokenLimit, 1200);
    assert.equal(config.demo.enabled, true);
  });

  it('lists every bad variable at once, the features’ with the core ones', () => {
    assert.throws(
      () =>
        loadAppConfig({
          PORT: '70000',
          DATABASE_MIGRATE: 'maybe',
          MCP_DESTRUCTIVE_CONFIRMATION: 'ask',
          RATE_LIMIT_TOKEN_PER_MINUTE: 'lots',
          DEMO: 'maybe',
        }),
      (error: InvalidEnvironmentError) => {
        assert.deepEqual(
          error.problems.map((problem) => problem.split(' ')[0]),
          ['PORT', 'DATABASE_MIGRATE', 'MCP_DESTRUCTIVE_CONFIRMATION', 'RATE_LIMIT_TOKEN_PER_MINUTE', 'DEMO'],
        );
        return true;
      },
    );
  });

  it('stops at a feature’s bad value too, with its own message (they used to fail later, inside Nest)', () => {
    assert.throws(
      () => loadAppConfig({ TOKEN_CACHE_TTL_MS: '5000' }),
      (error: Error) => error instanceof InvalidEnvironmentError && /^Invalid environment: TOKEN_CACHE_TTL_MS must be/.test(error.message),
    );
  });
});

describe('AppConfigModule', () => {
  it('provides each section under its own token, to every module (the database with the URL it is given)', async () => {
    const config = loadAppConfig({ DATABASE_URL: 'postgresql://example@127.0.0.1:5432/app', RATE_LIMIT_TOKEN_PER_MINUTE: '7' });
    @Module({ imports: [AppConfigModule.forRoot(config)] })
    class Root {}
    const app = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
    try {
      const core = app.get<CoreConfig>(CORE_CONFIG);
      assert.deepEqual(Object.keys(core).sort(), ['database', 'health', 'mcp', 'server']);
      assert.equal(core.server, config.server);
      assert.equal(app.get(DATABASE_CONFIG), config.database);
      assert.equal(app.get(RATE_LIMIT_CONFIG), config.rateLimit);
      assert.equal(app.get(IDENTITY_SETTINGS), config.identity);
      assert.equal(app.get(TOKEN_CACHE_OPTIONS), config.tokenCache);
    } finally {
      await app.close();
    }
  });
});
