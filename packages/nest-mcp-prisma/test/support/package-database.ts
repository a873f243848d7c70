import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

/** The PostgreSQL server the package's tests run on (CI and the repository's `npm test` set it). */
export const SERVER_URL = process.env.DATABASE_URL;
/** `describe(…, { skip })`: these tests need a real server, never a stand-in. */
export const NEEDS_DATABASE = SERVER_URL ? false : 'needs DATABASE_URL (a PostgreSQL server)';

const PACKAGE = resolve(import.meta.dirname, '..', '..');
/** An application's own table, stamped by channel: what the package's tools write in these tests. */
const APP_TABLES = `CREATE TABLE notes (
  id serial PRIMARY KEY,
  title text NOT NULL UNIQUE,
  created_via text NOT NULL,
  updated_via text NOT NULL
);`;

export interface PackageDatabase {
  url: string;
  rows<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * A new database on the server of DATABASE_URL with the package's tables, created from the SQL it
 * ships (`prisma/nest-mcp.sql`, what a team without `prisma migrate` runs), and a `notes` table of
 * an application; dropped by `close()`.
 */
export async function createPackageDatabase(options: { name?: string; moreSql?: string[] } = {}): Promise<PackageDatabase> {
  if (!SERVER_URL) throw new Error('DATABASE_URL is not set');
  const name = `${options.name ?? 'mcp_prisma_test'}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  await withClient(url.href, async (client) => {
    await client.query(readFileSync(join(PACKAGE, 'prisma', 'nest-mcp.sql'), 'utf8'));
    // Another package's tables on top of these (the admin pages' SQL), as an installing team applies them.
    for (const file of options.moreSql ?? []) await client.query(readFileSync(file, 'utf8'));
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
