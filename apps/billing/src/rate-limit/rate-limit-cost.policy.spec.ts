import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { attachMcpMessage, MCP_TOOL_METADATA, type McpRegistry } from '@nest-mcp/core/extensions';
import { RateLimitCostPolicy } from './rate-limit-cost.policy.js';
import { rateLimitConfigFromEnv } from './rate-limit.config.js';

const tools: Record<string, { readOnlyHint: boolean; destructiveHint: boolean }> = {
  read_tool: { readOnlyHint: true, destructiveHint: false },
  write_tool: { readOnlyHint: false, destructiveHint: false },
  destructive_tool: { readOnlyHint: false, destructiveHint: true },
};
const registry = { tool: (name: string) => (tools[name] ? { name, annotations: tools[name] } : undefined) } as unknown as McpRegistry;
const policy = new RateLimitCostPolicy(rateLimitConfigFromEnv({}), registry);

const mcpRequest = (body: unknown) => {
  const req = { body, method: 'POST', path: '/mcp' } as unknown as Request;
  attachMcpMessage(req, body, registry);
  return req;
};
const restRequest = (method: string, path: string) => ({ body: {}, method, path }) as unknown as Request;
const contextOf = (handler: object) => ({ getHandler: () => handler }) as unknown as ExecutionContext;
const plainHandler = () => undefined;

describe('RateLimitCostPolicy', () => {
  it('prices tools/call by the tool annotations: read 1, write 5, destructive 10', () => {
    const call = (name: unknown) =>
      policy.costOf(contextOf(plainHandler), mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } }));
    assert.deepEqual(call('read_tool'), { cost: 1, what: 'tools/call read_tool' });
    assert.deepEqual(call('write_tool'), { cost: 5, what: 'tools/call write_tool' });
    assert.deepEqual(call('destructive_tool'), { cost: 10, what: 'tools/call destructive_tool' });
    // Unknown or malformed: the default (the answer is an error anyway).
    assert.deepEqual(call('nope'), { cost: 1, what: 'tools/call' });
    assert.deepEqual(call(42), { cost: 1, what: 'tools/call' });
  });

  it('prices every other MCP message at the default, malformed bodies included', () => {
    for (const method of [
      'initialize',
      'ping',
      'server/discover',
      'tools/list',
      'resources/read',
      'prompts/get',
      'completion/complete',
      'notifications/initialized',
    ]) {
      assert.deepEqual(policy.costOf(contextOf(plainHandler), mcpRequest({ jsonrpc: '2.0', method })), { cost: 1, what: method });
    }
    for (const body of [null, [], 'text', { params: {} }, { jsonrpc: '1.0', method: 'tools/call', params: { name: 'destructive_tool' } }]) {
      assert.deepEqual(policy.costOf(contextOf(plainHandler), mcpRequest(body)), { cost: 1, what: 'this request' });
    }
  });

  it('prices a REST route that is also a tool as the tool, other routes by HTTP method', () => {
    const cancel = () => undefined;
    Reflect.defineMetadata(MCP_TOOL_METADATA, { name: 'destructive_tool' }, cancel);
    assert.deepEqual(policy.costOf(contextOf(cancel), restRequest('POST', '/v1/invoices/1/cancel')), {
      cost: 10,
      what: 'POST /v1/invoices/1/cancel',
    });
    assert.equal(policy.costOf(contextOf(plainHandler), restRequest('GET', '/v1/customers')).cost, 1);
    assert.equal(policy.costOf(contextOf(plainHandler), restRequest('HEAD', '/v1/customers')).cost, 1);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      assert.equal(policy.costOf(contextOf(plainHandler), restRequest(method, '/v1/x')).cost, 5);
  });

  it('takes the costs from the configuration', () => {
    const custom = new RateLimitCostPolicy(
      rateLimitConfigFromEnv({ RATE_LIMIT_COST_DESTRUCTIVE: '50', RATE_LIMIT_COST_DEFAULT: '0' }),
      registry,
    );
    const price = (body: unknown) => custom.costOf(contextOf(plainHandler), mcpRequest(body)).cost;
    assert.equal(price({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'destructive_tool' } }), 50);
    assert.equal(price({ jsonrpc: '2.0', id: 1, method: 'ping' }), 0);
  });
});
