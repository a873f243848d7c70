import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Get, Module, Param, ParseUUIDPipe } from '@nestjs/common';
import { McpTool, RequiredScopes } from '@nest-mcp/core';
import { callTool } from '@nest-mcp/core/testing';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * A route tool whose `@Param('ticket_id', ParseUUIDPipe)` gets a non-UUID says which argument is
 * wrong over MCP, with the hint argument validation gives: Nest's ParseUUIDPipe throws "Validation
 * failed (uuid is expected)" without the name, which the layer's parameter step adds
 * (packages/nest-mcp/src/discovery/mcp-handler.factory.ts). Over REST, Nest's own 400 stays as it is.
 */

@Controller('v1/pipe-tickets')
class PipeTicketsController {
  @Get(':ticket_id')
  @RequiredScopes('billing:read')
  @McpTool({ name: 'pipe_ticket_get', description: 'Gets a ticket.', annotations: { readOnlyHint: true } })
  get(@Param('ticket_id', ParseUUIDPipe) id: string) {
    return { id };
  }
}

@Module({ controllers: [PipeTicketsController] })
class PipeTicketsModule {}

describe('ParseUUIDPipe errors name the argument over MCP', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await startBillingApp(PipeTicketsModule);
    token = await t.token();
  });
  after(() => t?.close());

  it('over MCP: invalid_argument with the field and "Correct this argument and call <tool> again."', async () => {
    const answer = await callTool(t.mcpUrl, 'pipe_ticket_get', { ticket_id: 'not-a-uuid' }, { token });
    assert.equal(answer.isError, true);
    const [error] = answer.envelope.errors;
    assert.equal(error.code, 'invalid_argument');
    assert.equal(error.field, 'ticket_id');
    assert.match(error.message, /ticket_id/);
    assert.match(error.message, /Correct this argument and call pipe_ticket_get again\.$/);
  });
});
