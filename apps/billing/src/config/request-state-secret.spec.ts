import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Logger } from '@nestjs/common';
import { McpRequestState } from '@nest-mcp/core';
import { InMemoryRequestStateStore, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { coreConfigFromEnv, type CoreConfig } from './environment.js';
import { requestStateSecret } from './request-state-secret.js';

/** The warnings McpRequestState logs when it is built with `secret`. */
function warningsFor(secret: string | Uint8Array | undefined): string[] {
  const warnings: string[] = [];
  const original = Logger.prototype.warn;
  Logger.prototype.warn = function (message: unknown) {
    warnings.push(String(message));
  };
  try {
    new McpRequestState({ requestState: { secret, ttlSeconds: 600 } } as ResolvedMcpOptions, new InMemoryRequestStateStore());
  } finally {
    Logger.prototype.warn = original;
  }
  return warnings;
}

/** The two sections requestStateSecret reads: MCP_STATE_SECRET, and NODE_ENV=production or not. */
function settings(stateSecret: string | undefined, production: boolean): Pick<CoreConfig, 'mcp' | 'server'> {
  const config = coreConfigFromEnv({ NODE_ENV: production ? 'production' : 'test' });
  return { server: config.server, mcp: { ...config.mcp, stateSecret } };
}

describe('requestStateSecret', () => {
  it('uses MCP_STATE_SECRET when it is set', () => {
    const secret = 'x'.repeat(32);
    assert.equal(requestStateSecret(settings(secret, true)), secret);
  });

  it('gives a development process a key of its own, so the layer does not warn', () => {
    const secret = requestStateSecret(settings(undefined, false));
    assert.ok(secret instanceof Uint8Array && secret.length === 32);
    assert.deepEqual(warningsFor(secret), []);
  });

  it('leaves production without one, so the layer warns that replicas must share a key', () => {
    assert.equal(requestStateSecret(settings(undefined, true)), undefined);
    assert.match(warningsFor(undefined).join('\n'), /No requestState secret configured/);
  });
});
