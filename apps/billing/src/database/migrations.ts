import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { redactUrl } from '../common/redact-url.js';

/**
 * The repository root: the nearest folder above this file (src/, dist/ or .test-dist/src/) that
 * holds `prisma/schema/` (the app's schema files), else the current directory: where `prisma/migrations` and
 * `scripts/migrate-deploy.mjs` are.
 */
export function findProjectRoot(start = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'prisma', 'schema', 'billing.prisma'))) return dir;
    if (dirname(dir) === dir) break;
  }
  return process.cwd();
}

export interface RunMigrationsOptions {
  /** Receives progress, line by line, after a successful run. Silent when omitted. */
  log?: (line: string) => void;
  /** Repository root (where prisma/migrations is). Default: {@link findProjectRoot}. */
  cwd?: string;
  /**
   * First check `_prisma_migrations` without taking the migration lock, and stop there when every
   * migration in prisma/migrations is recorded as applied, with the same checksum. Default false.
   */
  skipIfUpToDate?: boolean;
}

type MigrateDeploy = typeof import('../../scripts/migrate-deploy.mjs');

/**
 * The migration runner, `scripts/migrate-deploy.mjs`: plain JavaScript so that `npm run db:migrate`
 * runs it without a build; loaded from the project root because this file runs from src/ (types),
 * dist/ and .test-dist/src/ alike.
 */
function loadMigrateDeploy(): Promise<MigrateDeploy> {
  return import(pathToFileURL(join(findProjectRoot(), 'scripts', 'migrate-deploy.mjs')).href) as Promise<MigrateDeploy>;
}

/**
 * Applies the pending migrations of `prisma/migrations` to the database at `databaseUrl`, with
 * Prisma's own bookkeeping (`_prisma_migrations`, its advisory lock), so that Prisma's CLI later
 * sees them as applied by itself. Prisma 7's CLI cannot migrate here: its native schema engine
 * cannot be downloaded offline (see docs/database.md). Resolves with the names of the migrations
 * it applied, in order (none: nothing was pending), for the boot log ({@link describeApplied});
 * throws when a migration fails.
 */
export async function runMigrations(databaseUrl: string, options: RunMigrationsOptions = {}): Promise<string[]> {
  if (!databaseUrl) throw new Error('runMigrations: a database URL is required');
  const root = options.cwd ?? findProjectRoot();
  const runner = await loadMigrateDeploy();
  if (options.skipIfUpToDate && (await runner.migrationsUpToDate(databaseUrl, root))) {
    options.log?.('All migrations are already applied');
    return [];
  }
  const lines: string[] = [];
  let applied: string[];
  try {
    applied = await runner.deployMigrations(databaseUrl, { root, log: (line) => lines.push(line) });
  } catch (error) {
    throw new Error(`Migrations failed for ${redactDatabaseUrl(databaseUrl)}: ${(error as Error).message}`, { cause: error });
  }
  if (options.log) for (const line of lines) options.log(line);
  return applied;
}

/** One boot-log line for what {@link runMigrations} applied: `3 migrations applied: 20250101_init, …` or `No pending migration`. */
export function describeApplied(applied: readonly string[]): string {
  if (!applied.length) return 'No pending migration';
  return `${applied.length} migration${applied.length === 1 ? '' : 's'} applied: ${applied.join(', ')}`;
}

/**
 * Whether every migration of `<root>/prisma/migrations` is recorded in the database's
 * `_prisma_migrations` as finished, not rolled back, with the checksum Prisma computes (SHA-256 of
 * migration.sql). Any doubt (no table, unreachable, failed or edited migration) → false, and
 * {@link runMigrations} decides.
 */
export async function migrationsUpToDate(databaseUrl: string, root = findProjectRoot()): Promise<boolean> {
  return (await loadMigrateDeploy()).migrationsUpToDate(databaseUrl, root);
}

/** The URL without its password, for messages. */
export function redactDatabaseUrl(url: string): string {
  return redactUrl(url, '<invalid database URL>');
}
