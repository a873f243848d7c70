import assert from 'node:assert/strict';
import type { HttpAnswer } from './mcp-http.js';

/**
 * The rule every answer of the endpoint keeps, whatever was sent: below 500, `Cache-Control:
 * no-store`, an `MCP-Protocol-Version` header, a JSON-RPC 2.0 result xor error (or 202 and no
 * body), never -32603 and never a stack trace. Returns the parsed message (undefined for a 202).
 */
export function assertWellFormedAnswer(answer: HttpAnswer): any {
  assert.ok(answer.status < 500, `status ${answer.status}: ${answer.text.slice(0, 300)}`);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.ok(answer.headers.get('mcp-protocol-version'));
  if (answer.status === 202) {
    assert.equal(answer.text, '');
    return undefined;
  }
  const body = answer.body;
  assert.equal(body.jsonrpc, '2.0');
  assert.ok('result' in body !== 'error' in body, answer.text.slice(0, 300));
  if (body.error) {
    assert.ok(Number.isInteger(body.error.code));
    assert.equal(typeof body.error.message, 'string');
    assert.notEqual(body.error.code, -32603, `an internal error: ${answer.text}`);
  }
  assert.doesNotMatch(answer.text, /\bat .+\.js:\d+/);
  return body;
}

/** The own property names of the built-in prototypes, to compare before and after hostile input. */
export function prototypesSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Object.getOwnPropertyNames(proto).sort().join(','))
    .join('|');
}

/** Fails when a prototype gained a property since `before` (a {@link prototypesSnapshot}). */
export function assertPrototypesClean(before: string): void {
  assert.equal(prototypesSnapshot(), before);
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'x', 'toJSON']) assert.equal(probe[key], undefined, `Object.prototype.${key}`);
}

/** Keys whose presence makes the body reader refuse a message (-32600): `__proto__` and `constructor`, at any level. */
export function hasPollutingKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasPollutingKey);
  if (Object.hasOwn(value, '__proto__') || Object.hasOwn(value, 'constructor')) return true;
  return Object.values(value).some(hasPollutingKey);
}

/** JSON text nested `depth` levels deep, as arrays or as objects. */
export function nestedJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
