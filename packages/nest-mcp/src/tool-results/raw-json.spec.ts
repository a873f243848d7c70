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

  it('writes a remembered value as the JSON it was serialized to, without serializing it again', () => {
    const envelope = { ok: true, data: { name: 'Ñandú "Co"', at: new Date(0) } };
    const text = JSON.stringify(envelope);
    const remembered = RawJson.remember(envelope, text);
    const body = { result: { content: [{ type: 'text', text }], structuredContent: remembered } };
    assert.equal(
      encodeWithRaw(body).toString(),
      JSON.stringify({ result: { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) } }),
    );
    // The bytes come from `text`: a change made after remembering (which callers must not make) does not show.
    envelope.data.name = 'changed';
    assert.match(encodeWithRaw(body).toString(), /"structuredContent":\{"ok":true,"data":\{"name":"Ñandú \\"Co\\""/);
  });

  it('leaves a remembered value a plain object everywhere else', () => {
    const value = RawJson.remember({ a: 1, nested: { b: [2] } }, '{"a":1,"nested":{"b":[2]}}');
    assert.deepStrictEqual(value, { a: 1, nested: { b: [2] } });
    assert.deepEqual(Object.keys(value), ['a', 'nested']);
    assert.equal(JSON.stringify({ value }), '{"value":{"a":1,"nested":{"b":[2]}}}');
    assert.deepEqual(structuredClone(value), { a: 1, nested: { b: [2] } });
  });
});
