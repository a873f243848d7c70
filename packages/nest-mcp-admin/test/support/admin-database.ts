import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

/** The PostgreSQL server the package's tests run on (CI and the repository's `npm test` set it). */
export const SERVER_URL = process.env.DATABASE_URL;
/** `describe(…, { skip })`: these tests need a real server, never a stand-in. */
export const NEEDS_DATABASE = SERVER_URL ? false : 'needs DATABASE_URL (a PostgreSQL server)';

const PACKAGE = resolve(import.meta.dirname, '..', '..');
/** @nest-mcp/prisma's tables, from the SQL it ships (as an installing team applies them). */
const PRISMA_SQL = join(
  dirname(createRequire(join(PACKAGE, 'package.json')).resolve('@nest-mcp/prisma/package.json')),
  'prisma',
  'nest-mcp.sql',
);
/** An application's own table, stamped by channel: what the fixture's tools write. */
const APP_TABLES = `CREATE TABLE notes (
  id serial PRIMARY KEY,
  title text NOT NULL UNIQUE,
  created_via text NOT NULL,
  updated_via text NOT NULL
);`;

export interface AdminDatabase {
  url: string;
  rows<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * A new database on the server of DATABASE_URL with the tables of @nest-mcp/prisma and of this
 * package, created from the SQL files they ship, and a `notes` table of an application; dropped by `close()`.
 */
export async function createAdminDatabase(): Promise<AdminDatabase> {
  if (!SERVER_URL) throw new Error('DATABASE_URL is not set');
  const name = `mcp_admin_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  await withClient(url.href, async (client) => {
    await client.query(readFileSync(PRISMA_SQL, 'utf8'));
    await client.query(readFileSync(join(PACKAGE, 'prisma', 'nest-mcp-admin.sql'), 'utf8'));
    await client.query(APP_TABLES);
  });
  return {
    url: url.href,
    rows: (text, values = []) => withClient(url.href, async (client) => (await client.query(text, values)).rows),
    close: () => withClient(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
