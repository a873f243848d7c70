import { join, resolve } from 'node:path';
// @nest-mcp/prisma's test databases, with this package's table on top: one kit for both packages.
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../../../nest-mcp-prisma/test/support/package-database.js';

export { NEEDS_DATABASE };
export type AdminDatabase = PackageDatabase;

const PACKAGE = resolve(import.meta.dirname, '..', '..');

/**
 * A new database on the server of DATABASE_URL with the tables of @nest-mcp/prisma and of this
 * package, created from the SQL files they ship, and a `notes` table of an application; dropped by `close()`.
 */
export function createAdminDatabase(): Promise<AdminDatabase> {
  return createPackageDatabase({ name: 'mcp_admin_test', moreSql: [join(PACKAGE, 'prisma', 'nest-mcp-admin.sql')] });
}
