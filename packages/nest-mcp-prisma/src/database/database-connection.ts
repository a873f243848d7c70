/** The PostgreSQL server `McpDatabase` connects to, and how it treats it. */
export interface McpDatabaseConnection {
  /** `postgresql://…`: the application's own database (the tables of prisma/nest-mcp.prisma live there). */
  url: string;
  /** Pooled connections of this process. Default 10. */
  poolSize?: number;
  /** A server that accepts no connection fails the query after this long (pg's default is no limit). Default 5000. */
  connectTimeoutMs?: number;
  /** `Retry-After` of the 503 answered while the database is unreachable. Default 5. */
  retryAfterSeconds?: number;
  /** How long a transaction may stay open before it is rolled back (a stuck call must not hold a connection). Default 15000. */
  transactionLimitMs?: number;
}
