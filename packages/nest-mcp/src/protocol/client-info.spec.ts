import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpProtocolError } from './mcp-protocol.error.js';
import { parseClientInfo } from './client-info.js';

const FIELD = 'params.clientInfo';

function refusal(value: unknown): McpProtocolError {
  try {
    parseClientInfo(value, FIELD, 400);
  } catch (error) {
    assert.ok(error instanceof McpProtocolError);
    return error;
  }
  assert.fail(`accepted ${JSON.stringify(value).slice(0, 60)}`);
}

describe('parseClientInfo', () => {
  it('keeps only name and version of a well-formed clientInfo; absent is fine', () => {
    assert.deepEqual(parseClientInfo({ name: 'Claude', version: '1.2.3', title: 't'.repeat(10_000), icons: [] }, FIELD), {
      name: 'Claude',
      version: '1.2.3',
    });
    assert.deepEqual(parseClientInfo({ name: 'no-version' }, FIELD), { name: 'no-version' });
    assert.equal(parseClientInfo(undefined, FIELD), undefined);
    assert.equal(parseClientInfo(null, FIELD), undefined);
  });

  it('accepts letters of any script, emoji and spaces, counting characters rather than UTF-16 units', () => {
    const name = '🤖'.repeat(128);
    assert.equal(name.length, 256);
    assert.deepEqual(parseClientInfo({ name, version: 'версия 1' }, FIELD), { name, version: 'версия 1' });
  });

  it('refuses with -32602, the given HTTP status, and the field named', () => {
    const error = refusal({ name: 'a\u0000b', version: '1' });
    assert.equal(error.code, -32602);
    assert.equal(error.httpStatus, 400);
    assert.match(error.message, /^Invalid params\.clientInfo\.name: must be printable/);
    assert.match(
      refusal({ name: 'ok', version: 'v'.repeat(65) }).message,
      /^Invalid params\.clientInfo\.version: must be at most 64 characters$/,
    );
    assert.match(refusal({ name: 'n'.repeat(129) }).message, /^Invalid params\.clientInfo\.name: must be at most 128 characters$/);
    assert.match(refusal({ name: '🤖'.repeat(129) }).message, /name: must be at most 128/);
    assert.match(refusal({ version: '1' }).message, /^Invalid params\.clientInfo\.name: must be a string$/);
    assert.match(refusal({ name: 'ok', version: 1 }).message, /version: must be a string/);
    assert.match(refusal('Claude').message, /^Invalid params\.clientInfo: must be an object/);
    assert.match(refusal(['Claude']).message, /must be an object/);
  });

  it('refuses C0, DEL, C1, bidi controls, line separators and lone surrogates', () => {
    for (const bad of [
      '\t',
      '\n',
      '\u001b[31m',
      '\u007f',
      '\u0085',
      '\u009b',
      '\u202e',
      '\u2066',
      '\u200f',
      '\u061c',
      '\u2028',
      '\ud800',
      'x\udc00',
    ]) {
      assert.match(refusal({ name: `client${bad}`, version: '1' }).message, /name: must be printable/, JSON.stringify(bad));
    }
  });
});
