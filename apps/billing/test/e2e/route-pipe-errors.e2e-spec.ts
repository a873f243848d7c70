import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Get, Module, Param, ParseUUIDPipe } from '@nestjs/common';
import { McpTool, namedArgumentPipe, RequiredScopes } from '@nest-mcp/core';
import { callTool } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * A param pipe's refusal names the argument. Nest's `ParseUUIDPipe` says only "Validation failed
 * (uuid is expected)". Over MCP the layer's parameter step names the argument of any pipe on a
 * route tool (packages/nest-mcp/src/discovery/mcp-handler.factory.ts), with the hint argument
 * validation gives. Over REST the route says `namedArgumentPipe(ParseUUIDPipe)` (from
 * @nest-mcp/core), as this application's routes do: the same 400 body on both surfaces.
 */

@Controller('v1/pipe-tickets')
class PipeTicketsController {
  @Get(':ticket_id')
  @RequiredScopes('billing:read')
  @McpTool({ name: 'pipe_ticket_get', description: 'Gets a ticket.', annotations: { readOnlyHint: true } })
  get(@Param('ticket_id', namedArgumentPipe(ParseUUIDPipe)) id: string) {
    return { id };
  }

  @Get(':ticket_id/history')
  @RequiredScopes('billing:read')
  @McpTool({ name: 'pipe_ticket_history', description: "Gets a ticket's history.", annotations: { readOnlyHint: true } })
  history(@Param('ticket_id', ParseUUIDPipe) id: string) {
    return { id, history: [] };
  }
}

@Module({ controllers: [PipeTicketsController] })
class PipeTicketsModule {}

const NAMED = '`ticket_id`: Validation failed (uuid is expected)';

describe('param pipe errors name the argument', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await startBillingApp(PipeTicketsModule);
    token = await t.token();
  });
  after(() => t?.close());

  const rest = async (path: string) => {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: bearer(token) });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('over REST, namedArgumentPipe(ParseUUIDPipe): a 400 naming the parameter (`field`, the message, `errors`)', async () => {
    const { status, body } = await rest('/v1/pipe-tickets/not-a-uuid');
    assert.equal(status, 400);
    assert.deepEqual(body, {
      statusCode: 400,
      error: 'Bad Request',
      field: 'ticket_id',
      message: NAMED,
      errors: [{ code: 'invalid_argument', field: 'ticket_id', message: NAMED, retryable: false }],
    });
  });

  it('over MCP, the same route: invalid_argument with the field and "Correct this argument and call <tool> again."', async () => {
    const answer = await callTool(t.mcpUrl, 'pipe_ticket_get', { ticket_id: 'not-a-uuid' }, { token });
    assert.equal(answer.isError, true);
    const [error] = answer.envelope.errors;
    assert.equal(error.code, 'invalid_argument');
    assert.equal(error.field, 'ticket_id');
    assert.equal(error.message, `${NAMED}. Correct this argument and call pipe_ticket_get again.`);
  });

  it('over MCP, a plain ParseUUIDPipe is named too (the layer names the argument of any pipe)', async () => {
    const answer = await callTool(t.mcpUrl, 'pipe_ticket_history', { ticket_id: 'not-a-uuid' }, { token });
    const [error] = answer.envelope.errors;
    assert.equal(error.field, 'ticket_id');
    assert.equal(error.message, `${NAMED}. Correct this argument and call pipe_ticket_history again.`);
  });

  it("the application's own routes name their UUID parameters over REST", async () => {
    for (const [path, field] of [
      ['/v1/customers/not-a-uuid', 'id'],
      ['/v1/payments/not-a-uuid', 'payment_id'],
      ['/v1/attachments/not-a-uuid', 'attachment_id'],
      ['/v1/attachments/not-a-uuid/content', 'attachment_id'],
      ['/v1/approvals/not-a-uuid', 'approval_id'],
    ]) {
      const { status, body } = await rest(path);
      assert.equal(status, 400, path);
      assert.equal(body.field, field, path);
      assert.equal(body.message, `\`${field}\`: Validation failed (uuid is expected)`, path);
    }
  });
});
