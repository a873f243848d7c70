import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Logger } from '@nestjs/common';
import { InMemoryRequestStateStore, McpRequestState, type ResolvedMcpOptions } from '@nest-mcp/core';
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

describe('requestStateSecret', () => {
  it('uses MCP_STATE_SECRET when it is set', () => {
    const secret = 'x'.repeat(32);
    assert.equal(requestStateSecret({ mcpStateSecret: secret, production: true }), secret);
  });

  it('gives a development process a key of its own, so the layer does not warn', () => {
    const secret = requestStateSecret({ production: false });
    assert.ok(secret instanceof Uint8Array && secret.length === 32);
    assert.deepEqual(warningsFor(secret), []);
  });

  it('leaves production without one, so the layer warns that replicas must share a key', () => {
    assert.equal(requestStateSecret({ production: true }), undefined);
    assert.match(warningsFor(undefined).join('\n'), /No requestState secret configured/);
  });
});
