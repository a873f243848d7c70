import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInboundMessage, requestIdOf } from './json-rpc-message.js';
import { McpProtocolError } from './mcp-protocol.error.js';

describe('parseInboundMessage', () => {
  it('accepts requests with string or number ids and notifications without', () => {
    assert.deepEqual(parseInboundMessage({ jsonrpc: '2.0', id: 'a', method: 'ping' }), { id: 'a', method: 'ping', params: {} });
    assert.equal(parseInboundMessage({ jsonrpc: '2.0', id: 0, method: 'ping' }).id, 0);
    assert.equal(parseInboundMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }).id, undefined);
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], /batches are not supported/],
    ['a string', 'hello', /JSON-RPC 2.0 object/],
    ['null', null, /JSON-RPC 2.0 object/],
    ['a wrong jsonrpc', { jsonrpc: '1.0', id: 1, method: 'ping' }, /"jsonrpc" must be "2.0"/],
    ['a missing method', { jsonrpc: '2.0', id: 1 }, /"method" must be a non-empty string/],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }, /not responses/],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, /"id" must be a string or a number/],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'ping' }, /"id" must be a string or a number/],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, /"params" must be an object/],
  ];
  for (const [label, body, pattern] of invalid) {
    it(`refuses ${label} with -32600 and HTTP 400`, () => {
      assert.throws(
        () => parseInboundMessage(body),
        (error: McpProtocolError) => {
          assert.equal(error.code, -32600);
          assert.equal(error.httpStatus, 400);
          assert.match(error.message, pattern);
          return true;
        },
      );
    });
  }

  it('echoes only usable ids', () => {
    assert.equal(requestIdOf({ id: 7 }), 7);
    assert.equal(requestIdOf({ id: 'x' }), 'x');
    assert.equal(requestIdOf({ id: null }), null);
    assert.equal(requestIdOf([{ id: 1 }]), null);
  });
});
