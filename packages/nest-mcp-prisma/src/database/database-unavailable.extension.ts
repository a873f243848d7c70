import { Prisma } from '@prisma/client/extension';
import { asDatabaseUnavailable } from './database-unavailable.js';
import type { McpDatabase } from './mcp-database.js';

/**
 * A Prisma client extension: a query of the application's client that fails because the database
 * is unreachable throws `DatabaseUnavailableException` (503 with `Retry-After`), as the unit of
 * work's own statements do, instead of a driver error that would answer 500.
 */
export function databaseUnavailableExtension(database: Pick<McpDatabase, 'retryAfterSeconds'>) {
  return Prisma.defineExtension({
    name: 'nest-mcp-database-unavailable',
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          throw asDatabaseUnavailable(error, database.retryAfterSeconds);
        }
      },
    },
  });
}
