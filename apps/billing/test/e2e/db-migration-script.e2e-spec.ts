import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

/**
 * `npm run db:migration -- <name>` on a copy of the project (its own prisma/ folder), against the
 * PostgreSQL server of DATABASE_URL: it writes the next migration from the schema, and nothing
 * when the schema and the migrations agree.
 */
// apps/billing (its prisma/ and scripts/), and the repository root (node_modules, hoisted by npm workspaces).
const root = resolve(import.meta.dirname, '..', '..');
const repo = resolve(root, '..', '..');
const serverUrl = process.env.DATABASE_URL;
const hasPrisma6 = (() => {
  try {
    createRequire(join(root, 'package.json')).resolve('prisma6/build/index.js');
    return true;
  } catch {
    return false;
  }
})();
const skip = !serverUrl ? 'needs DATABASE_URL (a PostgreSQL server)' : !hasPrisma6 ? 'the prisma6 dev dependency is not installed' : false;

describe('npm run db:migration', { skip }, () => {
  let project: string;
  before(() => {
    project = mkdtempSync(join(tmpdir(), 'db-migration-'));
    cpSync(join(root, 'prisma'), join(project, 'prisma'), { recursive: true });
    cpSync(join(root, 'scripts', 'db-migration.mjs'), join(project, 'scripts', 'db-migration.mjs'));
    cpSync(join(root, 'package.json'), join(project, 'package.json'));
    symlinkSync(join(repo, 'node_modules'), join(project, 'node_modules'));
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  const run = (name: string) =>
    spawnSync(process.execPath, [join(project, 'scripts', 'db-migration.mjs'), name], { cwd: project, encoding: 'utf8', env: process.env });
  const migrations = () => readdirSync(join(project, 'prisma', 'migrations')).filter((entry) => /^\d{14}_/.test(entry));

  it('writes nothing when the schema matches the migrations', () => {
    const before = migrations();
    const result = run('nothing_changed');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /matches prisma\/migrations: there is nothing to migrate/);
    assert.deepEqual(migrations(), before);
  });

  it('writes prisma/migrations/<timestamp>_<name>/migration.sql for a new column', () => {
    const schemaPath = join(project, 'prisma', 'schema', 'billing.prisma');
    const schema = readFileSync(schemaPath, 'utf8');
    writeFileSync(schemaPath, schema.replace(/(model Customer \{\n)/, '$1  notes       String?\n'));
    const result = run('add_customer_notes');
    assert.equal(result.status, 0, result.stderr);
    const folder = migrations().find((entry) => entry.endsWith('_add_customer_notes'));
    assert.ok(folder, result.stdout);
    assert.match(
      readFileSync(join(project, 'prisma', 'migrations', folder, 'migration.sql'), 'utf8'),
      /ALTER TABLE "customers" ADD COLUMN\s+"notes" TEXT;/,
    );
  });

  it('refuses a name that would not make a clean folder name', () => {
    const result = run('Add Notes');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /usage: npm run db:migration -- <name>/);
  });
});
