import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Module, Param, Post } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { McpTool } from '@nest-mcp/core';
import { callTool } from '@nest-mcp/core/testing';
import { APP_ROLE_SCOPES } from '../../src/app.scopes.js';
import type { Role } from '../../src/generated/prisma/client.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/** The test kit of docs/testing.md ("Writing a test"): what a new module's first test relies on. */

const NEW_SCOPE = 'kitfixture:write';
/** The server the run's tests use (unset: embedded), before a test app points DATABASE_URL at its own database. */
const RUN_DATABASE_URL = process.env.DATABASE_URL;

class KitFixtureArchiveDto {
  @IsString()
  @MaxLength(200)
  reason: string;
}

@Controller('v1/kit-fixture-records')
class KitFixtureController {
  @Post(':id/archive')
  @McpTool({ name: 'kit_fixture_archive', description: 'Archives a fixture record.', scopes: [NEW_SCOPE] })
  archive(@Param('id') id: string, @Body() body: KitFixtureArchiveDto) {
    return { id, archived: true, reason: body.reason };
  }
}

@Module({ controllers: [KitFixtureController] })
class KitFixtureModule {}

describe('t.token() of a module under a scope the application has just declared', () => {
  const roles = APP_ROLE_SCOPES as Record<Role, readonly string[]>;
  const adminBefore = roles.admin;
  let t: BillingTestApp;
  before(async () => {
    // What a new module does in app.scopes.ts: a new scope, allowed to the admin role.
    roles.admin = [...adminBefore, NEW_SCOPE];
    t = await startBillingApp(KitFixtureModule);
  });
  after(async () => {
    roles.admin = adminBefore;
    await t?.close();
  });

  it('mints every declared scope, the new one included', async () => {
    const check = await t.app.get(PersonalTokenService).check(await t.token());
    assert.ok(check.ok);
    assert.deepEqual([...check.principal.scopes].sort(), [...new Set([...Object.values(roles).flat()])].sort());
  });

  it("calls the new module's tool with it (no 403)", async () => {
    const answer = await callTool(t.mcpUrl, 'kit_fixture_archive', { id: 'r-1', reason: 'done' }, { token: await t.token() });
    assert.equal(answer.status, 200);
    assert.equal(answer.isError, false, JSON.stringify(answer.body));
  });
});

describe('a test file whose application fails to boot', () => {
  it('fails as soon as it booted, with the boot error (the test database is closed, nothing keeps the process alive)', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/boot-failure.fixture.ts', import.meta.url));
    const started = performance.now();
    // The environment of this run (the SWC hooks in NODE_OPTIONS, the test database variables),
    // without the marker that makes a `node --test` inside a test file skip its files.
    const { NODE_TEST_CONTEXT: _context, DATABASE_URL: _own, ...env } = process.env;
    if (RUN_DATABASE_URL) env.DATABASE_URL = RUN_DATABASE_URL;
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', fixture], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A file that hangs runs into the runner's 300 s test timeout; one that ends takes a boot
    // (~5-20 s, with a compile of the app's sources on a busy machine).
    const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(limit);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 60, `the file ran ${seconds.toFixed(1)} s: it hung after its boot failed\n${output}`);
    assert.notEqual(code, 0, output);
    assert.match(output, /"undeclared-fixture:read" is not a declared scope/);
  });
});
