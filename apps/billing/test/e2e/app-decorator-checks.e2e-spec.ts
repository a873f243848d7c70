import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Injectable, Module, Param, Post, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, MaxLength } from 'class-validator';
import { APP_ROLE_SCOPES } from '../../src/app.scopes.js';
import { configureApp } from '../../src/app.setup.js';
import { declaredScopes } from '../../src/identity/role-scopes.js';
import { McpTool } from '@nest-mcp/core';
import { post, statelessRequest } from '@nest-mcp/core/testing';
import { bearer, billingAppModule, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { createTestDatabase } from '../support/test-database.js';

/**
 * The decorator path inside the real application: its scope guard, its declared scopes and role
 * mapping, and its approval links, which need a workspace.
 *
 * The fixtures' names (classes, routes, tools) are their own: the README's example (tickets,
 * `CloseTicketDto`, `TicketsController`, `support:write`) is what a user adds to the application
 * this test boots, and two DTOs of one name collide in the Swagger document (and two tools of one name fail the boot).
 */

class DecoratorFixtureReasonDto {
  @IsString()
  @MaxLength(200)
  reason: string;
}

@Controller('v1/decorator-fixture-records')
class DecoratorFixtureController {
  @Post(':id/archive')
  @McpTool({ name: 'decorator_fixture_archive', description: 'Archives a fixture record.', scopes: ['billing:admin'] })
  archive(@Param('id') id: string, @Body() body: DecoratorFixtureReasonDto) {
    return { id, archived: true, reason: body.reason };
  }
}

@Module({ controllers: [DecoratorFixtureController] })
class DecoratorFixtureModule {}

@Injectable()
class TypoScopeFixtureTools {
  @McpTool({ description: 'Reads fixture records.', scopes: ['billing:raed'] })
  fixtureRecords() {
    return [];
  }
}

@Module({ providers: [TypoScopeFixtureTools] })
class TypoScopeFixtureModule {}

@Injectable()
class UnscopedDestructiveFixtureTools {
  @McpTool({ description: 'Deletes a fixture record.', annotations: { destructiveHint: true } })
  deleteFixtureRecord(input: DecoratorFixtureReasonDto) {
    return input;
  }
}

@Module({ providers: [UnscopedDestructiveFixtureTools] })
class UnscopedDestructiveFixtureModule {}

/** Boots the real application with `extra` on a database of its own; returns the boot error. */
async function appBootError(extra: Type<unknown>): Promise<string> {
  const database = await createTestDatabase();
  @Module({ imports: [billingAppModule(database.url), extra] })
  class TestAppModule {}
  const app = await NestFactory.create(TestAppModule, { logger: false, abortOnError: false });
  try {
    configureApp(app);
    await app.init();
  } catch (error) {
    return (error as Error).message;
  } finally {
    await app.close().catch(() => undefined);
    await database.close();
  }
  assert.fail('the application booted');
}

describe('decorators in the billing application', () => {
  let t: BillingTestApp;
  let viewer: string;
  let admin: string;
  before(async () => {
    t = await startBillingApp(DecoratorFixtureModule);
    // The token asks for every declared scope; the viewer's role still allows only billing:read.
    viewer = await t.token({ email: 'viewer@demo.test' });
    admin = await t.token();
  });
  after(() => t.close());

  const archiveOverRest = (token: string) =>
    fetch(`${t.baseUrl}/v1/decorator-fixture-records/r-1/archive`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ reason: 'duplicate' }),
    });

  it('1: @McpTool({ scopes }) on a controller route protects the REST route too (a viewer gets 403)', async () => {
    const response = await archiveOverRest(viewer);
    assert.equal(response.status, 403);
    assert.match(((await response.json()) as { message: string }).message, /role does not allow billing:admin/);
  });

  it('1: the same viewer is refused the tool over MCP', async () => {
    const request = statelessRequest('tools/list');
    const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(viewer) });
    assert.ok(!body.result.tools.some((tool: { name: string }) => tool.name === 'decorator_fixture_archive'));
  });

  it('1: an admin archives the record over REST', async () => {
    const response = await archiveOverRest(admin);
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { id: 'r-1', archived: true, reason: 'duplicate' });
  });
});

describe('decorator checks of the billing application at boot', () => {
  it('6: a scope the application does not declare fails the boot, naming the method and the declared scopes', async () => {
    const message = await appBootError(TypoScopeFixtureModule);
    assert.match(
      message,
      /TypoScopeFixtureTools\.fixtureRecords: "billing:raed" is not a declared scope \(did you mean "billing:read"\?\)/,
    );
    assert.ok(message.includes(`Declared scopes: ${declaredScopes(APP_ROLE_SCOPES).join(', ')}.`), message);
  });

  it('5: a destructive tool outside @WorkspaceScoped() fails the boot (its approval needs a workspace)', async () => {
    const message = await appBootError(UnscopedDestructiveFixtureModule);
    assert.match(message, /UnscopedDestructiveFixtureTools\.deleteFixtureRecord/);
    assert.match(message, /@WorkspaceScoped\(\)/);
  });
});
