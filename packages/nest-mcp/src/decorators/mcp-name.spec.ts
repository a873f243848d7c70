import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import 'reflect-metadata';
import { McpTool } from './mcp-tool.decorator.js';
import { resolveMcpName, suggestName } from './mcp-name.js';

describe('tool names (SEP-986)', () => {
  it('accepts 1–128 characters of A-Z a-z 0-9 _ - .', () => {
    for (const name of ['a', 'invoices.create', 'get-user_v2', 'X'.repeat(128)]) assert.equal(resolveMcpName('McpTool', name, 'm'), name);
    assert.equal(resolveMcpName('McpTool', undefined, 'methodName'), 'methodName');
  });

  for (const name of ['', 'has space', 'a/b', 'a,b', 'café', 'x'.repeat(129)]) {
    it(`refuses ${JSON.stringify(name.length > 20 ? `${name.length} characters` : name)} naming the method and a valid name to use`, () => {
      class Billing {}
      assert.throws(
        () => McpTool({ name, description: 'd' })(Billing.prototype, 'create', { value: () => 0 }),
        (error: Error) => {
          assert.match(error.message, /^@McpTool: Billing\.create: ".*" is not a valid name: use 1–128 characters of A-Z a-z 0-9 _ - \./);
          const suggested = /e\.g\. name: (".*")$/.exec(error.message)?.[1];
          assert.ok(suggested, error.message);
          assert.equal(resolveMcpName('McpTool', JSON.parse(suggested), 'm'), JSON.parse(suggested));
          return true;
        },
      );
    });
  }

  it('suggests a close valid name', () => {
    assert.equal(suggestName('create invoice/v2'), 'create_invoice_v2');
    assert.equal(suggestName('café'), 'caf');
    assert.equal(suggestName('///'), 'tool');
  });
});
