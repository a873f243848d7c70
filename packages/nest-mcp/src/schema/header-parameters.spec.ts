import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerParametersOf } from './header-parameters.js';

const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const refused = (schema: unknown, pattern: RegExp) => assert.throws(() => headerParametersOf(schema), pattern);

describe('headerParametersOf', () => {
  it('lists string, integer and boolean properties with x-mcp-header, nested ones through properties', () => {
    const schema = tool({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
      scope: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
      query: { type: 'string', examples: [{ 'x-mcp-header': 'NotAnAnnotation' }] },
    });
    assert.deepEqual(headerParametersOf(schema), [
      { name: 'Region', path: ['region'], type: 'string' },
      { name: 'Count', path: ['count'], type: 'integer' },
      { name: 'Flag', path: ['flag'], type: 'boolean' },
      { name: 'Tenant', path: ['scope', 'tenant'], type: 'string' },
    ]);
    assert.deepEqual(headerParametersOf(tool({ a: { type: 'string' } })), []);
  });

  it('refuses names that are empty or not HTTP tokens', () => {
    for (const name of ['', 'My Region', 'Region:Primary', 'Région', 'Region\t1', 'Region\r\n', 42]) {
      refused(tool({ value: { type: 'string', 'x-mcp-header': name } }), /is not a header name/);
    }
  });

  it('refuses properties that are not string, integer or boolean', () => {
    refused(tool({ score: { type: 'number', 'x-mcp-header': 'Score' } }), /type "number".*@IsInt\(\)/);
    for (const type of ['object', 'array', 'null', ['string', 'null'], undefined]) {
      refused(tool({ data: { type, 'x-mcp-header': 'Data' } }), /only string, integer and boolean properties/);
    }
  });

  it('refuses the same name twice, ignoring case', () => {
    refused(tool({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }), /already declared/);
    refused(
      tool({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }),
      /already declared as "MyField"/,
    );
  });

  it('refuses declarations not reachable through properties alone', () => {
    const header = { type: 'string', 'x-mcp-header': 'Region' };
    refused(tool({ list: { type: 'array', items: header } }), /inputSchema\.properties\.list\.items: x-mcp-header is allowed only/);
    refused(tool({}, { anyOf: [tool({ region: header })] }), /anyOf\.0\.properties\.region: x-mcp-header is allowed only/);
    refused(tool({}, { $defs: { Region: header } }), /\$defs\.Region: x-mcp-header is allowed only/);
    refused(tool({}, { additionalProperties: header }), /additionalProperties: x-mcp-header is allowed only/);
    refused({ ...header }, /^Error: inputSchema: x-mcp-header is allowed only/);
  });
});
