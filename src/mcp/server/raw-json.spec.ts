import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RawJson, stringifyWithRaw } from './raw-json.js';

describe('stringifyWithRaw', () => {
  it('splices pre-serialized JSON where RawJson values sit, and equals a plain stringify', () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object' } }, { name: 'b"$&', description: 'x\u2028y' }];
    const spliced = stringifyWithRaw({ jsonrpc: '2.0', id: 1, result: { tools: RawJson.array(tools.map((t) => JSON.stringify(t))) } });
    assert.equal(spliced, JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } }));
  });

  it('leaves ordinary values, including marker-like strings, untouched', () => {
    const value = { text: '"__mcp_raw_', n: [1, null, 'x'] };
    assert.equal(stringifyWithRaw(value), JSON.stringify(value));
  });
});
