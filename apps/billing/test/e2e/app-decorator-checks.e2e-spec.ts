import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Injectable, Module, Param, Post, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, MaxLength } from 'class-validator';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { McpTool } from '@nest-mcp/core';
import { post, statelessRequest } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { createTestDatabase } from '../support/test-database.js';

/**
 * The decorator path inside the real application: its scope guard, its declared scopes and role
 * mapping, and its approval links, which need a workspace.
 */

class CloseTicketDto {
  @IsString()
  @MaxLength(200)
  reason: string;
}

@Controller('v1/support-tickets')
class SupportTicketsController {
  @Post(':id/close')
  @McpTool({ name: 'support_ticket_close', description: 'Closes a support ticket.', scopes: ['billing:admin'] })
  close(@Param('id') id: string, @Body() body: CloseTicketDto) {
    return { id, closed: true, reason: body.reason };
  }
}

@Module({ controllers: [SupportTicketsController] })
class SupportModule {}

@Injectable()
class TypoScopeTools {
  @McpTool({ description: 'Reads tickets.', scopes: ['billing:raed'] })
  tickets() {
    return [];
  }
}

@Module({ providers: [TypoScopeTools] })
class TypoScopeModule {}

@Injectable()
class UnscopedDestructiveTools {
  @McpTool({ description: 'Deletes a ticket.', annotations: { destructiveHint: true } })
  deleteTicket(input: CloseTicketDto) {
    return input;
  }
}

@Module({ providers: [UnscopedDestructiveTools] })
class UnscopedDestructiveModule {}

/** Boots the real application with `extra` on a database of its own; returns the boot error. */
async function appBootError(extra: Type<unknown>): Promise<string> {
  const database = await createTestDatabase();
  const previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = database.url;
  @Module({ imports: [AppModule, extra] })
  class TestAppModule {}
  const app = await NestFactory.create(TestAppModule, { logger: false, abortOnError: false });
  try {
    configureApp(app);
    await app.init();
  } catch (error) {
    return (error as Error).message;
  } finally {
    await app.close().catch(() => undefined);
    process.env.DATABASE_URL = previousUrl;
    await database.close();
  }
  assert.fail('the application booted');
}

describe('decorators in the billing application', () => {
  let t: BillingTestApp;
  let viewer: string;
  let admin: string;
  before(async () => {
    t = await startBillingApp(SupportModule);
    // The token asks for every scope; the viewer's role still allows only billing:read.
    viewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read', 'billing:write', 'billing:admin'] });
    admin = await t.token();
  });
  after(() => t.close());

  const closeOverRest = (token: string) =>
    fetch(`${t.baseUrl}/v1/support-tickets/t-1/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ reason: 'duplicate' }),
    });

  it('1: @McpTool({ scopes }) on a controller route protects the REST route too (a viewer gets 403)', async () => {
    const response = await closeOverRest(viewer);
    assert.equal(response.status, 403);
    assert.match(((await response.json()) as { message: string }).message, /role does not allow billing:admin/);
  });

  it('1: the same viewer is refused the tool over MCP', async () => {
    const request = statelessRequest('tools/list');
    const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(viewer) });
    assert.ok(!body.result.tools.some((tool: { name: string }) => tool.name === 'support_ticket_close'));
  });

  it('1: an admin closes the ticket over REST', async () => {
    const response = await closeOverRest(admin);
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { id: 't-1', closed: true, reason: 'duplicate' });
  });
});

describe('decorator checks of the billing application at boot', () => {
  it('6: a scope the application does not declare fails the boot, naming the method and the declared scopes', async () => {
    const message = await appBootError(TypoScopeModule);
    assert.match(message, /TypoScopeTools\.tickets: "billing:raed" is not a declared scope \(did you mean "billing:read"\?\)/);
    assert.match(message, /billing:admin, billing:read, billing:write/);
  });

  it('5: a destructive tool outside @WorkspaceScoped() fails the boot (its approval needs a workspace)', async () => {
    const message = await appBootError(UnscopedDestructiveModule);
    assert.match(message, /UnscopedDestructiveTools\.deleteTicket/);
    assert.match(message, /@WorkspaceScoped\(\)/);
  });
});
