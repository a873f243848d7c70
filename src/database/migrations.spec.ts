import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findProjectRoot, migrationsUpToDate, prismaCliPath, redactUrl, runMigrations } from './migrations.js';

describe('runMigrations', () => {
  it('finds the project root and the Prisma CLI from the compiled file location', () => {
    const root = findProjectRoot();
    assert.ok(existsSync(join(root, 'prisma', 'schema.prisma')));
    assert.ok(existsSync(prismaCliPath(root)));
  });

  it("throws with the CLI's output when the database cannot be reached", async () => {
    await assert.rejects(runMigrations('postgresql://postgres:secret@127.0.0.1:1/nowhere'), (error: Error) => {
      assert.match(error.message, /^prisma migrate deploy failed \(exit code \d+\) for postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere/);
      assert.match(error.message, /Prisma schema loaded/);
      assert.doesNotMatch(error.message, /secret/);
      return true;
    });
  });

  it('does not call an unreachable database up to date', async () => {
    assert.equal(await migrationsUpToDate('postgresql://postgres@127.0.0.1:1/nowhere'), false);
  });

  it('redacts passwords in URLs', () => {
    assert.equal(redactUrl('postgresql://u:p@h:1/d'), 'postgresql://u:***@h:1/d');
    assert.equal(redactUrl('not a url'), '<invalid database URL>');
  });
});
