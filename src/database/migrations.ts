import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The repository root: the nearest folder above this file (src/, dist/ or .test-dist/src/) that
 * holds `prisma/schema.prisma`, else the current directory. The Prisma CLI must run there to find
 * `prisma.config.ts` and `prisma/migrations`.
 */
export function findProjectRoot(start = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'prisma', 'schema.prisma'))) return dir;
    if (dirname(dir) === dir) break;
  }
  return process.cwd();
}

/** Absolute path of the Prisma CLI entry point (`prisma/build/index.js`) as installed for `root`. */
export function prismaCliPath(root = findProjectRoot()): string {
  return createRequire(join(root, 'package.json')).resolve('prisma/build/index.js');
}

export interface RunMigrationsOptions {
  /** Receives the CLI's output, line by line, after a successful run. Silent when omitted. */
  log?: (line: string) => void;
  /** Repository root (where prisma.config.ts is). Default: {@link findProjectRoot}. */
  cwd?: string;
  /**
   * First check `_prisma_migrations` directly and skip the CLI (~1.5 s) when every migration in
   * prisma/migrations is recorded there as applied, with the same checksum. Default false.
   */
  skipIfUpToDate?: boolean;
}

/**
 * Applies the migrations in `prisma/migrations` to the database at `databaseUrl` with
 * `prisma migrate deploy` (the CLI uses Prisma's WebAssembly schema engine through
 * `@prisma/adapter-pg`, see prisma.config.ts). Throws with the CLI's output when it fails.
 */
export async function runMigrations(databaseUrl: string, options: RunMigrationsOptions = {}): Promise<void> {
  if (!databaseUrl) throw new Error('runMigrations: a database URL is required');
  const cwd = options.cwd ?? findProjectRoot();
  if (options.skipIfUpToDate && (await migrationsUpToDate(databaseUrl, cwd))) {
    options.log?.('All migrations are already applied');
    return;
  }
  const { code, output } = await runPrismaCli(['migrate', 'deploy'], {
    cwd,
    env: { DATABASE_URL: databaseUrl },
    doneWhen: MIGRATE_DEPLOY_DONE,
  });
  if (code !== 0) {
    throw new Error(`prisma migrate deploy failed (exit code ${code}) for ${redactUrl(databaseUrl)}:\n${output.trim()}`);
  }
  if (options.log) for (const line of output.split('\n')) if (line.trim()) options.log(line);
}

/**
 * Whether every migration of `<root>/prisma/migrations` is recorded in the database's
 * `_prisma_migrations` as finished, not rolled back, with the checksum Prisma computes (SHA-256 of
 * migration.sql). Any doubt (no table, unreachable, failed or edited migration) → false, and
 * `prisma migrate deploy` decides.
 */
export async function migrationsUpToDate(databaseUrl: string, root = findProjectRoot()): Promise<boolean> {
  const dir = join(root, 'prisma', 'migrations');
  if (!existsSync(dir)) return false;
  const local = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => ({
      name: entry.name,
      checksum: createHash('sha256').update(readFileSync(join(dir, entry.name, 'migration.sql'))).digest('hex'),
    }));
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    return local.every((migration) => applied.get(migration.name) === migration.checksum);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * What `prisma migrate deploy` prints last when it succeeded. Prisma 6.19's WebAssembly schema
 * engine leaves a 10-second timer behind (its advisory-lock timeout) and the adapter's `pg.Pool`
 * keeps its idle connection for 10 s, so the CLI lingers ~10 s after its work is done: once this
 * line is out, it is stopped.
 */
export const MIGRATE_DEPLOY_DONE = /^(All migrations have been successfully applied\.|No pending migrations to apply\.)\s*$/m;

export interface PrismaCliOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** When the CLI's stdout matches this, it has finished successfully: stop waiting for it to exit. */
  doneWhen?: RegExp;
}

/** Runs the Prisma CLI with Node, capturing stdout and stderr together. */
export function runPrismaCli(args: string[], options: PrismaCliOptions = {}): Promise<{ code: number; output: string }> {
  const cwd = options.cwd ?? findProjectRoot();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [prismaCliPath(cwd), ...args], {
      cwd,
      env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stdout = '';
    let done = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
      if (!done && options.doneWhen?.test(stdout)) {
        done = true;
        // Let any trailing output arrive, then stop the lingering process.
        setTimeout(() => child.exitCode === null && child.kill('SIGTERM'), 100).unref();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code: done ? 0 : (code ?? (signal ? 128 : 1)), output }));
  });
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid database URL>';
  }
}
