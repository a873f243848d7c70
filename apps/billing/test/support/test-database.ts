import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import pg from 'pg';
import { coreConfigFromEnv } from '../../src/config/environment.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { runMigrations } from '../../src/database/migrations.js';
import { PrismaService } from '../../src/database/prisma.service.js';

/**
 * The PostgreSQL server the tests run against: DATABASE_URL as it was when this module loaded
 * (tests set process.env.DATABASE_URL to their own database afterwards), or undefined → embedded.
 */
const SERVER_URL = process.env.DATABASE_URL || undefined;

export interface TestDatabase {
  /** Connection URL of a database of its own, migrated, empty. */
  url: string;
  /** Drops the database (real server) or stops the embedded instance. */
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (call it again for another one); sets nothing
 * global. `scripts/run-tests.mjs` prepares the migrated state once per run:
 * - DATABASE_URL set: a database `mcp_test_<pid>_<random>` on that server, copied from the
 *   template database named by TEST_DATABASE_TEMPLATE (`CREATE DATABASE … TEMPLATE …`, ~0.1 s),
 *   dropped by close();
 * - DATABASE_URL unset: an in-memory embedded PostgreSQL (PGlite) loaded from the snapshot file
 *   named by TEST_PGLITE_SNAPSHOT (~1 s), served on a free loopback port, stopped by close().
 * Without those variables (tests started without run-tests.mjs) it applies the migrations itself
 * instead, a few seconds more.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  return SERVER_URL ? createOnServer(SERVER_URL) : createEmbedded();
}

/** The application's database client on `url`, with the pool settings of this process's environment (the database section, `DATABASE_*`). */
export function prismaOn(url: string): PrismaService {
  return new PrismaService({ ...coreConfigFromEnv(process.env).database, url });
}

/**
 * A fresh, migrated embedded database (PGlite, what `npm start` runs with no DATABASE_URL), whatever
 * DATABASE_URL says: for a test about the embedded database itself (one backend for every connection).
 */
export function createEmbeddedTestDatabase(): Promise<TestDatabase> {
  return createEmbedded();
}

async function createEmbedded(): Promise<TestDatabase> {
  const snapshot = process.env.TEST_PGLITE_SNAPSHOT;
  const embedded = await EmbeddedPostgres.start(snapshot ? { loadDataDir: await openAsBlob(snapshot) } : {});
  try {
    if (!snapshot) await runMigrations(embedded.url);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  return { url: embedded.url, close: () => embedded.stop() };
}

async function createOnServer(serverUrl: string): Promise<TestDatabase> {
  const name = `mcp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  const url = databaseUrl(serverUrl, name);
  await withClient(serverUrl, async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`);
        return;
      } catch (error) {
        // 55006: the template is being accessed by another session (e.g. a migration just ended).
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((ok) => setTimeout(ok, 100 * attempt));
      }
    }
  });
  const drop = () => withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
  try {
    if (!template) await runMigrations(url);
  } catch (error) {
    await drop();
    throw error;
  }
  let closed = false;
  return {
    url,
    close: async () => {
      if (closed) return;
      closed = true;
      await drop();
    },
  };
}

/** `serverUrl` pointing at database `name` (same host, user, options). */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** The rows of one statement, on a connection of its own (for tests that look into a database directly). */
export async function queryRows<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  return withClient(url, async (client) => (await client.query<T>(text, values)).rows);
}

/** Runs `work` on a connection of its own to `url`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
