import type { IdempotentCall, McpCall } from '@nest-mcp/core/extensions';
import type { ChannelResolver } from '../channel/mcp-channel.js';
import type { McpDatabaseConnection } from '../database/database-connection.js';
import type { McpDatabase } from '../database/mcp-database.js';
import type { StreamEventLimits } from '../streams/stream-limits.js';
import type { McpPrismaTaskOptions, ResolvedTaskQueueOptions } from '../tasks/task-queue.options.js';

/** Who made a call, as the application knows it: ids as text, whatever their type in its own tables. */
export interface McpAuditActor {
  /** The tenant the call acts in (a workspace, an account, an organisation). */
  workspaceId?: string;
  userId?: string;
  /** The credential used (a token id, never the token). */
  tokenId?: string;
}

/** Whose keys an MCP call's idempotency key is among (undefined: the scope shared by calls of no known caller). */
export type IdempotencyScope = (call: IdempotentCall) => string | undefined;

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
   * write is expected: such a write then fails instead of being stamped with a guess. A task's run
   * on a worker takes the channel this says there (the request its task callers restore: `api`
   * for a job a REST route submitted), else `mcp`.
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
   * Stream mode's shared state in PostgreSQL (`mcpPrismaStreamExtensions()`): sessions, replayable
   * events, the bus over LISTEN/NOTIFY. Giving it also starts the cleanup of expired sessions and
   * events.
   */
  streams?: {
    /** How long an SSE event can be replayed with `Last-Event-ID`. Default: 10 min. */
    eventRetentionMs?: number;
    /** At most this many events kept per stream (the newest stay). Default: 1000. */
    maxEventsPerStream?: number;
    /** How often expired sessions and old events are deleted (0: never by this process). Default: 60 s. */
    cleanupIntervalMs?: number;
    /** The PostgreSQL channel of the bus; applications sharing a server use their own. Default: `mcp_bus`. */
    busChannel?: string;
  };
  /**
   * MCP tasks in PostgreSQL (`mcpPrismaTaskExtensions()`): the task rows (`mcp_tasks`) and the
   * pg-boss queue that runs them on any replica (install `pg-boss`). These say how this replica
   * takes part; without them, the defaults (2 workers).
   */
  tasks?: McpPrismaTaskOptions;
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
  /**
   * The `channel` the application gave, if any: it also decides the channel of a task's run on a
   * worker, where the application's task callers restore the request that created the task.
   */
  givenChannel?: ChannelResolver;
  audit: { actor: (call: McpCall) => McpAuditActor };
  idempotency: { ttlSeconds: number; scope?: IdempotencyScope };
  cleanupIntervalMs: number;
  tasks: ResolvedTaskQueueOptions;
  /** Without the `streams` option: the defaults, and no cleanup. */
  streams: { limits: StreamEventLimits; cleanupIntervalMs: number; busChannel: string };
}

export const MCP_PRISMA_OPTIONS = Symbol('MCP_PRISMA_OPTIONS');
