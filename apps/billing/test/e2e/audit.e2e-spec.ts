import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Injectable, Module, Post, UnprocessableEntityException } from '@nestjs/common';
import { McpAuditLog } from '@nest-mcp/prisma';
import { CustomersService } from '../../src/billing/customers/customers.service.js';
import { WorkspaceScoped } from '../../src/identity/workspace-scoped.decorator.js';
import { McpTool, RequiredScopes } from '@nest-mcp/core';
import { callStateless, callTool } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/** Tools that write and then fail: the write must not survive, the failure must be audited. */
@Injectable()
@WorkspaceScoped()
@RequiredScopes('billing:write')
@Controller('test/failing')
class FailingTools {
  constructor(private readonly customers: CustomersService) {}

  @Post('crash')
  @McpTool({ name: 'test_write_then_crash', description: 'Creates a customer, then crashes.' })
  async crash() {
    await this.customers.create({ name: 'Ghost', email: 'ghost-crash@demo.test' });
    throw new Error('boom after the write');
  }

  @Post('refuse')
  @McpTool({ name: 'test_write_then_refuse', description: 'Creates a customer, then refuses (business rule).' })
  async refuse() {
    await this.customers.create({ name: 'Ghost', email: 'ghost-refuse@demo.test' });
    throw new UnprocessableEntityException('The invoice is already paid');
  }
}

@Module({ controllers: [FailingTools], providers: [CustomersService] })
class FailingToolsModule {}

describe('audit trail and created_via (real database)', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await startBillingApp(FailingToolsModule);
    token = await t.token();
  });
  after(() => t.close());

  const call = (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}, meta: Record<string, unknown> = {}) =>
    callTool(t.mcpUrl, name, args, { token, headers, meta });
  const complete = (ref: Record<string, string>, argument: Record<string, string>) =>
    callStateless(t.mcpUrl, 'completion/complete', { ref, argument }, { token });

  it('stamps created_via by channel: mcp through MCP, api through REST', async () => {
    const viaMcp = await call('billing_customer_create', { name: 'Via MCP', email: 'mcp@demo.test' });
    const mcpCustomer = viaMcp.envelope.data;
    assert.equal(mcpCustomer.created_via, 'mcp');
    const viaRest = await fetch(`${t.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ name: 'Via REST', email: 'rest@demo.test' }),
    });
    assert.equal(viaRest.status, 201);
    const restCustomer = (await viaRest.json()) as { id: string; created_via: string };
    assert.equal(restCustomer.created_via, 'api');
    const rows = await t.prisma.client.customer.findMany({ where: { id: { in: [mcpCustomer.id, restCustomer.id] } } });
    assert.deepEqual(Object.fromEntries(rows.map((row) => [row.email, [row.createdVia, row.updatedVia]])), {
      'mcp@demo.test': ['mcp', 'mcp'],
      'rest@demo.test': ['api', 'api'],
    });
  });

  it('audits a successful call with who, what, client, redacted arguments and the trace id', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await call('billing_customer_create', { name: 'Audited', email: 'audited@demo.test', api_key: 'sk_live_123' }, {}, { traceparent });
    const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { target: 'billing_customer_create', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' },
    });
    const admin = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'admin@demo.test' } });
    const demo = await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    // The arguments were refused (api_key is not declared), so the call failed: still audited.
    assert.equal(event.outcome, 'failed');
    assert.equal(event.errorCode, 'invalid_argument');
    assert.equal(event.channel, 'mcp');
    assert.equal(event.method, 'tools/call');
    assert.equal(event.userId, admin.id);
    assert.equal(event.clientName, 'test-client');
    assert.equal(event.clientVersion, '1.0.0');
    assert.ok(event.tokenId && !event.tokenId.startsWith('mcp_pat_'));
    assert.deepEqual(event.arguments, { name: 'Audited', email: 'audited@demo.test', api_key: '[REDACTED]' });
    assert.ok(event.durationMs >= 0);
    await call('billing_customer_create', { name: 'Audited', email: 'audited@demo.test' });
    const success = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { target: 'billing_customer_create', outcome: 'success' },
      orderBy: { occurredAt: 'desc' },
    });
    assert.equal(success.workspaceId, demo.id);
  });

  it('rolls back the write of a call that crashes, and audits the failure', async () => {
    const { body } = await call('test_write_then_crash', {});
    assert.equal(body.error.code, -32603);
    assert.equal(await t.prisma.client.customer.count({ where: { email: 'ghost-crash@demo.test' } }), 0);
    const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({ where: { target: 'test_write_then_crash' } });
    assert.equal(event.outcome, 'error');
    assert.equal(event.errorCode, 'internal_error');
  });

  it('rolls back the write of a call that ends in an isError result, and audits it as failed', async () => {
    const { body } = await call('test_write_then_refuse', {});
    assert.equal(body.result.isError, true);
    assert.equal(await t.prisma.client.customer.count({ where: { email: 'ghost-refuse@demo.test' } }), 0);
    const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({ where: { target: 'test_write_then_refuse' } });
    assert.equal(event.outcome, 'failed');
    assert.equal(event.errorCode, 'business_rule');
  });

  it('never keeps a write whose audit event could not be written', async () => {
    const audit = t.app.get(McpAuditLog);
    const original = audit.record.bind(audit);
    let failNext = true;
    audit.record = async (event) => {
      if (failNext && event.outcome === 'success') {
        failNext = false;
        throw new Error('audit table unavailable');
      }
      return original(event);
    };
    try {
      const { body } = await call('billing_customer_create', { name: 'Unaudited', email: 'unaudited@demo.test' });
      assert.equal(body.error.code, -32603);
      assert.equal(await t.prisma.client.customer.count({ where: { email: 'unaudited@demo.test' } }), 0);
      const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { arguments: { equals: { name: 'Unaudited', email: 'unaudited@demo.test' } } },
      });
      assert.equal(event.outcome, 'error');
    } finally {
      audit.record = original;
    }
  });

  it('audits reads too: a read-only tool and a resource, success and failure', async () => {
    await call('billing_customer_summary', { email: 'mcp@demo.test' });
    await call('billing_customer_summary', { email: 'nobody@demo.test' });
    const reads = await t.prisma.client.mcpAuditEvent.findMany({
      where: { target: 'billing_customer_summary' },
      orderBy: { occurredAt: 'asc' },
    });
    assert.deepEqual(
      reads.map((event) => [event.outcome, event.errorCode]),
      [
        ['success', null],
        ['failed', 'not_found'],
      ],
    );
  });

  it("audits completion/complete in the caller's workspace: target is the ref and the argument", async () => {
    const { body } = await complete({ type: 'ref/resource', uri: 'billing://customers/{id}' }, { name: 'id', value: '' });
    assert.ok(body.result.completion.values.length > 0);
    const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({ where: { method: 'completion/complete' } });
    const demo = await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    assert.equal(event.workspaceId, demo.id);
    assert.equal(event.target, 'billing://customers/{id}#id');
    assert.equal(event.outcome, 'success');
    assert.equal(event.channel, 'mcp');
    assert.equal(event.clientName, 'test-client');
    assert.deepEqual(event.arguments, { argument: { name: 'id', value: '' } });
  });

  it('audits a completion/complete of an unknown prompt as an error', async () => {
    const { body } = await complete({ type: 'ref/prompt', name: 'no_such_prompt' }, { name: 'x', value: 'a' });
    assert.equal(body.error.code, -32602);
    const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { method: 'completion/complete', target: 'no_such_prompt#x' },
    });
    assert.deepEqual([event.outcome, event.errorCode], ['error', '-32602']);
  });

  it('audits refused calls as denied', async () => {
    const readOnly = await t.token({ scopes: ['billing:read'] });
    const { status } = await callStateless(
      t.mcpUrl,
      'tools/call',
      { name: 'billing_customer_create', arguments: { name: 'N', email: 'n@demo.test' } },
      { token: readOnly },
    );
    assert.equal(status, 403);
    const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({ where: { outcome: 'denied' } });
    assert.equal(event.errorCode, 'http_403');
  });

  it('never stores a token in an audit row or a result', async () => {
    const events = await t.prisma.client.mcpAuditEvent.findMany();
    assert.ok(events.length >= 5);
    assert.ok(events.every((event) => !JSON.stringify(event).includes('mcp_pat_')));
  });
});
