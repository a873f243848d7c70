import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Type } from '@nestjs/common';
import {
  SupportDeskNestedModule,
  SupportDeskNoMetadataModule,
  SupportDeskResourceModule,
  SupportDeskRouteParamModule,
  SupportDeskUndecoratedModule,
  SupportDeskUnvalidatedNestedModule,
} from '../fixtures/support-mistakes.fixture.js';
import { startBillingApp } from '../support/billing-app.js';

/**
 * The decorator mistakes a developer new to the project makes, in the billing application: its real module graph (AppModule,
 * its scope policy, its global ValidationPipe, configureApp) plus one support module with the
 * mistake (test/fixtures/support-mistakes.fixture.ts) fails the boot, naming `Class.method`, what
 * is wrong and the fix. The layer's own test of each check, on fixture apps:
 * packages/nest-mcp/test/e2e/mcp-decorator-mistakes.e2e-spec.ts. Mistake 5 (a tool outside
 * @WorkspaceScoped() that reads the workspace) cannot be seen at boot and answers a 400:
 * app-unscoped-workspace-reads.e2e-spec.ts.
 */

/** Boots the billing application (as every test boots it) with `extra`; returns the boot error's message. */
async function bootError(extra: Type<unknown>): Promise<string> {
  const booted = await startBillingApp(extra).catch((error: unknown) => error);
  if (booted instanceof Error) return booted.message;
  await (booted as { close(): Promise<void> }).close();
  assert.fail(`the billing application booted with ${extra.name}`);
}

describe('decorator mistakes in the billing application fail the boot, naming Class.method, what is wrong and the fix', () => {
  it("1: a resource whose template says {ticketId} while the method reads @Param('id')", async () => {
    const message = await bootError(SupportDeskResourceModule);
    assert.match(
      message,
      /SupportDeskTicketsController\.get: reads `id` \(@Param\('id'\)\), which the URI template support:\/\/tickets\/\{ticketId\} does not have/,
    );
    assert.match(message, /reads nothing of the template's \{ticketId\}/);
    assert.match(message, /Rename `id` to `ticketId` \(or the template's \{ticketId\} to \{id\}\)/);
  });

  it('2: @ValidateNested() without @Type() on a single nested object', async () => {
    const message = await bootError(SupportDeskNestedModule);
    assert.match(
      message,
      /SupportDeskOpenController\.open: OpenSupportDeskTicketDto\.requester: @ValidateNested\(\) without @Type\(\(\) => SupportDeskRequesterDto\)/,
    );
    assert.match(message, /every call would be refused/);
    assert.match(message, /Add @Type\(\(\) => SupportDeskRequesterDto\) from class-transformer/);
  });

  it('3: a property with no decorator at all inside a decorated DTO', async () => {
    const message = await bootError(SupportDeskUndecoratedModule);
    assert.match(message, /SupportDeskNoteTools\.addNote: SupportDeskNoteDto\.internal has no decorator/);
    assert.match(message, /every SupportDeskNoteDto instance has it/);
    assert.match(message, /`internal` is not an accepted argument; remove it"/);
    assert.match(message, /Give it its validators \(with @IsOptional\(\)/);
  });

  it("4: @Param('ticketId') on the route :id/close", async () => {
    const message = await bootError(SupportDeskRouteParamModule);
    assert.match(
      message,
      /SupportDeskCloseController\.close: @Param\('ticketId'\) names no parameter of its route POST \/v1\/support-desk\/tickets\/:id\/close/,
    );
    assert.match(message, /so REST would never receive it/);
    assert.match(message, /Read one of the route's parameters \(:id\), or rename the route's parameter to :ticketId/);
  });

  it('6: @Type() without @ValidateNested()', async () => {
    const message = await bootError(SupportDeskUnvalidatedNestedModule);
    assert.match(
      message,
      /SupportDeskReplyTools\.reply: ReplySupportDeskTicketDto\.attachment has @Type\(\(\) => SupportDeskAttachmentRefDto\) but no @ValidateNested\(\)/,
    );
    assert.match(message, /Add @ValidateNested\(\) \(@ValidateNested\(\{ each: true \}\) for an array; with @IsOptional\(\)/);
  });

  it('6: code compiled without decorator metadata (tsx, esbuild)', async () => {
    const message = await bootError(SupportDeskNoMetadataModule);
    assert.match(message, /SupportDeskAssignTools\.assign: decorator metadata is missing/);
    assert.match(message, /emitDecoratorMetadata: tsx and esbuild never emit it/);
    assert.match(message, /SWC \(jsc\.transform\.decoratorMetadata: true/);
  });
});
