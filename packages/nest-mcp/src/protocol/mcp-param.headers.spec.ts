import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpHeaderParameter } from '../schema/header-parameters.js';
import { checkParamHeaders } from './mcp-param.headers.js';
import { McpProtocolError } from './mcp-protocol.error.js';

const region: McpHeaderParameter = { name: 'Region', path: ['region'], type: 'string' };
const count: McpHeaderParameter = { name: 'Count', path: ['count'], type: 'integer' };
const flag: McpHeaderParameter = { name: 'Flag', path: ['flag'], type: 'boolean' };
const nested: McpHeaderParameter = { name: 'Tenant', path: ['scope', 'tenant'], type: 'string' };

const accepts = (parameter: McpHeaderParameter, args: unknown, header?: string, required = true) =>
  checkParamHeaders([parameter], args, header === undefined ? {} : { [`mcp-param-${parameter.name.toLowerCase()}`]: header }, required);

function refuses(parameter: McpHeaderParameter, args: unknown, header: string | undefined, pattern: RegExp, required = true) {
  assert.throws(
    () => accepts(parameter, args, header, required),
    (error: unknown) => {
      assert.ok(error instanceof McpProtocolError, String(error));
      assert.equal(error.code, -32020);
      assert.equal(error.httpStatus, 400);
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('checkParamHeaders', () => {
  it('decodes a valid =?base64?…?= value and compares it with the argument', () => {
    accepts(region, { region: 'Hello' }, '=?base64?SGVsbG8=?=');
    accepts(region, { region: 'Hello, 世界' }, '=?base64?SGVsbG8sIOS4lueVjA==?=');
    accepts(region, { region: ' padded ' }, '=?base64?IHBhZGRlZCA=?=');
    accepts(region, { region: 'line1\nline2' }, '=?base64?bGluZTEKbGluZTI=?=');
    accepts(region, { region: '=?base64?literal?=' }, '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    accepts(region, { region: '' }, '=?base64??=');
    refuses(region, { region: 'Hellx' }, '=?base64?SGVsbG8=?=', /Mcp-Param-Region is "Hello" but arguments\.region is "Hellx"/);
  });

  it('refuses bad base64 padding and characters', () => {
    refuses(region, { region: 'Hello' }, '=?base64?SGVsbG8?=', /Mcp-Param-Region has an invalid =\?base64\?…\?= value/);
    refuses(region, { region: 'Hello' }, '=?base64?SGVs!!!bG8=?=', /invalid =\?base64\?…\?= value/);
    refuses(region, { region: '\uFFFD' }, '=?base64?/w==?=', /invalid =\?base64\?…\?= value/); // not UTF-8
  });

  it('takes a value without the exact lowercase prefix and suffix literally', () => {
    accepts(region, { region: 'SGVsbG8=' }, 'SGVsbG8=');
    accepts(region, { region: '=?base64?SGVsbG8=' }, '=?base64?SGVsbG8=');
    accepts(region, { region: '=?BASE64?SGVsbG8=?=' }, '=?BASE64?SGVsbG8=?=');
    refuses(region, { region: 'Hello' }, '=?BASE64?SGVsbG8=?=', /is "=\?BASE64\?SGVsbG8=\?=" but arguments\.region is "Hello"/);
  });

  it('trims the whitespace around a plain value, keeps inner spaces, and refuses characters outside visible ASCII', () => {
    accepts(region, { region: 'us west 1' }, '  us west 1\t');
    refuses(region, { region: 'Région' }, 'R\u00c3\u00a9gion', /outside visible ASCII/);
  });

  it('compares integers numerically and booleans as true / false', () => {
    accepts(count, { count: 42 }, '42');
    accepts(count, { count: 42 }, '42.0');
    accepts(count, { count: -7 }, '-7');
    refuses(count, { count: 42 }, '0x2a', /Mcp-Param-Count is "0x2a" but arguments\.count is "42"/);
    refuses(count, { count: 0 }, '', /Mcp-Param-Count is "" but arguments\.count is "0"/);
    accepts(flag, { flag: false }, 'false');
    refuses(flag, { flag: true }, 'TRUE', /Mcp-Param-Flag is "TRUE" but arguments\.flag is "true"/);
  });

  it('requires the header of an argument the body carries, in the 2026-07-28 era only', () => {
    refuses(region, { region: 'us-west1' }, undefined, /Mcp-Param-Region is required and must carry arguments\.region \("us-west1"\)/);
    accepts(region, { region: 'us-west1' }, undefined, false);
    refuses(region, { region: 'us-west1' }, 'eu-west1', /is "eu-west1" but arguments\.region is "us-west1"/, false);
  });

  it('expects no header for an argument that is absent or null, and refuses one sent anyway', () => {
    accepts(region, {}, undefined);
    accepts(region, { region: null }, undefined);
    accepts(region, undefined, undefined);
    refuses(region, {}, 'us-west1', /Mcp-Param-Region is "us-west1" but the body has no arguments\.region/);
    refuses(region, { region: null }, 'us-west1', /the body has no arguments\.region/);
  });

  it('leaves an argument of the wrong kind to argument validation, but refuses a header claiming it', () => {
    accepts(region, { region: { nested: true } }, undefined);
    refuses(region, { region: ['a'] }, 'a', /arguments\.region is not a string, integer or boolean/);
  });

  it('reads a nested argument through its property chain', () => {
    accepts(nested, { scope: { tenant: 'acme' } }, 'acme');
    refuses(nested, { scope: { tenant: 'acme' } }, undefined, /Mcp-Param-Tenant is required and must carry arguments\.scope\.tenant/);
  });

  it('cuts long values in its message', () => {
    const long = 'x'.repeat(10_000);
    assert.throws(
      () => accepts(region, { region: long }, 'short'),
      (error: Error) => error.message.length < 300 && error.message.includes('…'),
    );
  });
});
