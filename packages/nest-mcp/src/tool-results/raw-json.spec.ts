import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeWithRaw, RawJson } from './raw-json.js';

describe('encodeWithRaw', () => {
  it('copies pre-encoded JSON where RawJson values sit, byte-equal to a plain encoding', () => {
    const tools = [
      { name: 'a', inputSchema: { type: 'object' } },
      { name: 'b"$&ñ', description: 'x\u2028y…' },
    ];
    const body = { jsonrpc: '2.0', id: 1, result: { tools: RawJson.array(tools.map((tool) => RawJson.of(tool))), nextCursor: 'c' } };
    assert.deepEqual(encodeWithRaw(body), Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools, nextCursor: 'c' } })));
    assert.equal(encodeWithRaw({ tools: RawJson.array([]) }).toString(), '{"tools":[]}');
  });

  it('leaves ordinary values, including marker-like strings, untouched', () => {
    const value = { text: '"__mcp_raw_', n: [1, null, 'ñ'] };
    assert.deepEqual(encodeWithRaw(value), Buffer.from(JSON.stringify(value)));
  });
});
