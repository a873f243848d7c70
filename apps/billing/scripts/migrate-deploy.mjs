// Applies prisma/migrations/*/migration.sql the way `prisma migrate deploy` does, without Prisma's
// CLI: Prisma 7's CLI needs its native schema engine, which cannot be downloaded offline (here, CI).
// The bookkeeping is Prisma's own, so Prisma's CLI (on a machine with network access) sees the
// same database as migrated by itself:
// - table `_prisma_migrations` with Prisma's columns; one row per migration: a random UUID `id`,
//   `checksum` = SHA-256 (hex) of migration.sql, `started_at` when it began, `finished_at` and
//   `applied_steps_count` = 1 once it succeeded, `logs` = the error when it failed;
// - the same advisory lock (72707369), so this and Prisma's CLI never migrate at once;
// - each script sent as one simple query (Postgres runs it as one implicit transaction, as
//   Prisma's engine does); a failed migration stops this and every later deploy (Prisma's P3009)
//   until it is resolved (`prisma migrate resolve`, or delete its row after fixing the database);
// - a database that has tables but no `_prisma_migrations` is refused (Prisma's P3005: baseline it).
// Used by src/database/migrations.ts (application start, tests) and by scripts/prisma.mjs
// (`npm run db:migrate`). Plain JavaScript so that both can run it without a build.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** The advisory lock key Prisma's schema engine takes while it migrates a PostgreSQL database. */
export const PRISMA_MIGRATE_LOCK = 72707369;

/** The table as Prisma's schema engine creates it (PostgreSQL). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** The migrations of `<root>/prisma/migrations`, in the order Prisma applies them (by folder name). */
export function localMigrations(root) {
  const dir = join(root, 'prisma', 'migrations');
  if (!existsSync(dir)) return [];
  const lock = join(dir, 'migration_lock.toml');
  if (existsSync(lock)) {
    const provider = /^\s*provider\s*=\s*"([^"]+)"/m.exec(readFileSync(lock, 'utf8'))?.[1];
    if (provider && provider !== 'postgresql') {
      throw new Error(`prisma/migrations/migration_lock.toml is for "${provider}", not postgresql`);
    }
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const script = readFileSync(join(dir, name, 'migration.sql'));
      return { name, script: script.toString('utf8'), checksum: createHash('sha256').update(script).digest('hex') };
    });
}

/** A connected client on `databaseUrl`; `?schema=` (Prisma's URL parameter) becomes the search path. */
async function connect(databaseUrl) {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  if (schema) {
    const ident = `"${schema.replaceAll('"', '""')}"`;
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident}; SET search_path TO ${ident}`);
  }
  return client;
}

/** Rows of `_prisma_migrations`, or undefined when the table does not exist. */
async function appliedRows(client) {
  const { rows: exists } = await client.query(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`);
  if (!exists[0].present) return undefined;
  const { rows } = await client.query(
    `SELECT id, migration_name, checksum, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at`,
  );
  return rows;
}

/**
 * Whether every local migration is recorded as finished, not rolled back, with the same checksum.
 * Any doubt (no table, unreachable, failed or edited migration) → false: deploy then decides.
 */
export async function migrationsUpToDate(databaseUrl, root) {
  let client;
  try {
    const local = localMigrations(root);
    client = await connect(databaseUrl);
    const rows = await appliedRows(client);
    if (!rows) return false;
    const applied = new Map(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => [row.migration_name, row.checksum]));
    return local.every((migration) => applied.get(migration.name) === migration.checksum);
  } catch {
    return false;
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/**
 * Applies the pending migrations of `<root>/prisma/migrations` to `databaseUrl`. Resolves with the
 * names applied; `log` gets one line per step (Prisma's wording). Throws on the first failure.
 */
export async function deployMigrations(databaseUrl, { root, log = () => undefined }) {
  const local = localMigrations(root);
  const client = await connect(databaseUrl);
  try {
    await client.query(`SELECT pg_advisory_lock(${PRISMA_MIGRATE_LOCK})`);
    try {
      let rows = await appliedRows(client);
      if (!rows) {
        const { rows: tables } = await client.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()`,
        );
        if (tables[0].n > 0) {
          throw new Error(
            'The database schema is not empty and has no _prisma_migrations table (Prisma P3005): baseline it first ' +
              '(https://pris.ly/d/migrate-baseline).',
          );
        }
        await client.query(CREATE_MIGRATIONS_TABLE);
        rows = [];
      }
      const failed = rows.filter((row) => !row.finished_at && !row.rolled_back_at);
      if (failed.length) {
        throw new Error(
          `Migration ${failed.map((row) => `\`${row.migration_name}\``).join(', ')} failed earlier (Prisma P3009): ` +
            `new migrations are not applied until it is resolved (prisma migrate resolve).\n${failed[0].logs ?? ''}`.trim(),
        );
      }
      const done = new Set(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => row.migration_name));
      const pending = local.filter((migration) => !done.has(migration.name));
      log(`${local.length} migration${local.length === 1 ? '' : 's'} found in prisma/migrations`);
      if (!pending.length) {
        log('No pending migrations to apply.');
        return [];
      }
      for (const migration of pending) {
        const id = randomUUID();
        await client.query(`INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ($1, $2, $3)`, [
          id,
          migration.checksum,
          migration.name,
        ]);
        log(`Applying migration \`${migration.name}\``);
        try {
          await client.query(migration.script);
        } catch (error) {
          const logs = `Migration name: ${migration.name}\n\nDatabase error code: ${error.code ?? 'unknown'}\n\nDatabase error:\n${error.message}`;
          await client.query(`UPDATE _prisma_migrations SET logs = $1 WHERE id = $2`, [logs, id]).catch(() => undefined);
          throw new Error(`Migration \`${migration.name}\` failed: ${error.message}`, { cause: error });
        }
        await client.query(
          `UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = applied_steps_count + 1 WHERE id = $1`,
          [id],
        );
      }
      log('All migrations have been successfully applied.');
      return pending.map((migration) => migration.name);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${PRISMA_MIGRATE_LOCK})`).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
