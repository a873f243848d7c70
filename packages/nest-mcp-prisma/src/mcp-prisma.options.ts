import type { McpCall } from '@nest-mcp/core';
import type { McpAuditActor } from './audit/audit-record.js';
import type { ChannelResolver } from './channel/mcp-channel.js';
import type { McpDatabaseConnection } from './database/database-connection.js';
import type { McpDatabase } from './database/mcp-database.js';
import type { IdempotencyScope } from './idempotency/idempotent-operation.js';

/** `McpPrismaModule.forRoot()` / `forRootAsync()`. */
export interface McpPrismaOptions {
  /** The PostgreSQL database (the application's own: the tables of prisma/nest-mcp.prisma live there). */
  connection?: McpDatabaseConnection;
  /**
   * Instead of `connection`: a unit of work the application made itself (its own `McpDatabase`,
   * e.g. a Prisma service that extends it), used as is.
   */
  database?: McpDatabase;
  /**
   * The channel of writes made outside an MCP call (inside one it is always `mcp`): stamped as
   * `created_via` / `updated_via` and on audit rows. Default: `api`. Return undefined where no
   * write is expected: such a write then fails instead of being stamped with a guess.
   */
  channel?: ChannelResolver;
  audit?: {
    /** Who made a call (the request's user, tenant and credential). Default: nobody known. */
    actor?: (call: McpCall) => McpAuditActor;
  };
  idempotency?: {
    /** How long a stored answer is replayed; after that the key may be used again. Default: 24 h. */
    ttlSeconds?: number;
    /**
     * Whose keys a call's key is among: keys of two scopes never meet (another tenant, another
     * person). Default: the caller, as the layer's `callerKey` option names it (a hash of the
     * request's credentials unless the application says otherwise).
     */
    scope?: IdempotencyScope;
  };
  /**
   * How often expired rows (idempotency keys, request-state uses, client infos not refreshed for
   * 30 days) are deleted. 0: never by this process (tests, or a job outside the app). Default: 1 h.
   */
  cleanupIntervalMs?: number;
}

/** The options with every default filled. */
export interface ResolvedMcpPrismaOptions {
  /** The given one, or one made from `connection`. */
  database: McpDatabase;
  channel: ChannelResolver;
  audit: { actor: (call: McpCall) => McpAuditActor };
  idempotency: { ttlSeconds: number; scope?: IdempotencyScope };
  cleanupIntervalMs: number;
}

export const MCP_PRISMA_OPTIONS = Symbol('MCP_PRISMA_OPTIONS');
