import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import type { InboundMessage } from './json-rpc-message.js';
import { McpProtocolError } from './mcp-protocol.error.js';
import { negotiateProtocol } from './protocol-negotiation.js';

const options = resolveMcpOptions();
const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

function message(method: string, params: Record<string, unknown> = {}): InboundMessage {
  return { id: 1, method, params };
}
function notification(method: string, params: Record<string, unknown>): InboundMessage {
  return { method, params };
}
const stateless = (extra: Record<string, unknown> = {}) => ({ _meta: { [V]: '2026-07-28', [CAPS]: {}, ...extra } });
const headers2026 = (method: string, more: Record<string, string> = {}) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...more,
});

function expectError(fn: () => unknown, code: number, status: number, pattern?: RegExp) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof McpProtocolError, String(error));
    assert.equal(error.code, code);
    assert.equal(error.httpStatus, status);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

describe('negotiateProtocol', () => {
  it('takes the envelope as the 2026 era, with capabilities and client info', () => {
    const result = negotiateProtocol(
      message('tools/list', stateless({ [INFO]: { name: 'c', version: '1' }, [CAPS]: { elicitation: {} } })),
      headers2026('tools/list'),
      options,
    );
    assert.deepEqual(result, {
      era: 'stateless',
      version: '2026-07-28',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'c', version: '1' },
    });
  });

  it('takes no envelope as the handshake era; no header means 2025-03-26', () => {
    assert.equal(negotiateProtocol(message('tools/list'), {}, options).version, '2025-03-26');
    const result = negotiateProtocol(message('tools/list'), { 'mcp-protocol-version': '2025-06-18' }, options);
    assert.deepEqual(result, { era: 'handshake', version: '2025-06-18', clientCapabilities: {} });
  });

  it('refuses a 2026 header without the envelope (-32602, 400): never a silent fallback', () => {
    expectError(() => negotiateProtocol(message('tools/list'), { 'mcp-protocol-version': '2026-07-28' }, options), -32602, 400, /envelope/);
  });

  it('refuses an unsupported version in the header or the envelope with -32022 and the supported list', () => {
    for (const attempt of [
      () => negotiateProtocol(message('tools/list'), { 'mcp-protocol-version': '1999-01-01' }, options),
      () =>
        negotiateProtocol(
          message('tools/list', { _meta: { [V]: '1999-01-01', [CAPS]: {} } }),
          headers2026('tools/list', { 'mcp-protocol-version': '1999-01-01' }),
          options,
        ),
    ]) {
      assert.throws(attempt, (error: McpProtocolError) => {
        assert.equal(error.code, -32022);
        assert.equal(error.httpStatus, 400);
        assert.deepEqual(error.data, { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '1999-01-01' });
        return true;
      });
    }
  });

  it('refuses a missing clientCapabilities with -32602 before comparing headers', () => {
    expectError(
      () => negotiateProtocol(message('tools/list', { _meta: { [V]: '2026-07-28' } }), {}, options),
      -32602,
      400,
      /clientCapabilities/,
    );
  });

  it('answers header/body disagreement with -32020 Header mismatch', () => {
    const cases: Array<[InboundMessage, Record<string, string>, RegExp]> = [
      [message('tools/list', stateless()), { 'mcp-method': 'tools/list' }, /MCP-Protocol-Version is required/],
      [
        message('tools/list', stateless()),
        headers2026('tools/list', { 'mcp-protocol-version': '2025-06-18' }),
        /MCP-Protocol-Version is 2025-06-18/,
      ],
      [message('tools/list', { _meta: { [V]: 'v999', [CAPS]: {} } }), headers2026('tools/list'), /params._meta names v999/],
      [message('tools/list', stateless()), { 'mcp-protocol-version': '2026-07-28' }, /Mcp-Method is required/],
      [message('tools/list', stateless()), headers2026('TOOLS/LIST'), /Mcp-Method is "TOOLS\/LIST"/],
      [message('tools/call', { name: 'echo', ...stateless() }), headers2026('tools/call'), /Mcp-Name is required/],
      [message('tools/call', { name: 'echo', ...stateless() }), headers2026('tools/call', { 'mcp-name': 'other' }), /Mcp-Name is "other"/],
      [message('resources/read', { uri: 'a://b', ...stateless() }), headers2026('resources/read', { 'mcp-name': 'a://c' }), /params.uri/],
      [
        message('tools/call', { name: 'echo', ...stateless() }),
        headers2026('tools/call', { 'mcp-name': '=?base64?!!!?=' }),
        /invalid =\?base64/,
      ],
    ];
    for (const [msg, headers, pattern] of cases) expectError(() => negotiateProtocol(msg, headers, options), -32020, 400, pattern);
  });

  it('accepts Mcp-Name raw, trimmed or base64-encoded, and only requires it on tools/call', () => {
    const call = message('tools/call', { name: 'factura_crear', ...stateless() });
    negotiateProtocol(call, headers2026('tools/call', { 'mcp-name': '  factura_crear ' }), options);
    const unicode = message('tools/call', { name: 'café', ...stateless() });
    const encoded = `=?base64?${Buffer.from('café').toString('base64')}?=`;
    negotiateProtocol(unicode, headers2026('tools/call', { 'mcp-name': encoded }), options);
    negotiateProtocol(message('prompts/get', { name: 'p', ...stateless() }), headers2026('prompts/get'), options);
    negotiateProtocol(message('resources/read', { uri: 'a://b', ...stateless() }), headers2026('resources/read'), options);
  });

  it('lets notifications omit Mcp-Method but checks it when present', () => {
    negotiateProtocol(notification('notifications/initialized', stateless()), { 'mcp-protocol-version': '2026-07-28' }, options);
    expectError(
      () => negotiateProtocol(notification('notifications/initialized', stateless()), headers2026('other'), options),
      -32020,
      400,
    );
  });

  it('never refuses initialize for its header (2025-11-25 lifecycle: the header comes after initialization)', () => {
    const restricted = resolveMcpOptions({ supportedVersions: ['2025-06-18', '2025-03-26'] });
    for (const header of ['2025-11-25', '2026-07-28', '1999-01-01', 'garbage']) {
      const result = negotiateProtocol(
        message('initialize', { protocolVersion: '2025-11-25' }),
        { 'mcp-protocol-version': header },
        restricted,
      );
      assert.deepEqual(result, { era: 'handshake', version: '2025-03-26', clientCapabilities: {} }, header);
    }
    // A header naming a version this server speaks is the answer's version until initialize negotiates.
    assert.equal(negotiateProtocol(message('initialize'), { 'mcp-protocol-version': '2025-11-25' }, options).version, '2025-11-25');
    // The same header on any other request is still checked.
    expectError(() => negotiateProtocol(message('ping'), { 'mcp-protocol-version': '2025-11-25' }, restricted), -32022, 400);
  });

  it('serves 2025-11-25 by default', () => {
    assert.deepEqual(negotiateProtocol(message('tools/list'), { 'mcp-protocol-version': '2025-11-25' }, options), {
      era: 'handshake',
      version: '2025-11-25',
      clientCapabilities: {},
    });
  });

  it('follows the configured version list', () => {
    const only2026 = resolveMcpOptions({ supportedVersions: ['2026-07-28'] });
    expectError(() => negotiateProtocol(message('initialize'), {}, only2026), -32022, 400);
  });
});
