import type { McpExtensionOptions } from '@nest-mcp/core';
import { McpAuditHook } from './audit/mcp-audit.hook.js';
import { McpDatabase } from './database/mcp-database.js';
import { PrismaIdempotencyStore } from './idempotency/prisma-idempotency.store.js';
import { MCP_PRISMA_OPTIONS, type ResolvedMcpPrismaOptions } from './options/mcp-prisma.options.js';
import { PrismaClientInfoStore } from './stores/prisma-client-info.store.js';
import { PrismaRequestStateStore } from './stores/prisma-request-state.store.js';
import { PostgresEventStore } from './streams/postgres-event.store.js';
import { PostgresMessageBus } from './streams/postgres-message.bus.js';
import { PostgresSessionStore } from './streams/postgres-session.store.js';
import { PgBossTaskQueue } from './tasks/pg-boss-task.queue.js';
import { PostgresTaskStore } from './tasks/postgres-task.store.js';

/**
 * The extension points of `McpModule` this package fills, to spread into its options: the call
 * hook (transaction + audit row + `mcp` channel), idempotency keys, request-state uses and
 * client infos, all shared by every replica through PostgreSQL.
 */
export function mcpPrismaExtensions(): Required<
  Pick<McpExtensionOptions, 'callHook' | 'idempotencyStore' | 'requestStateStore' | 'clientInfoStore'>
> {
  return {
    callHook: { useExisting: McpAuditHook },
    idempotencyStore: { useExisting: PrismaIdempotencyStore },
    requestStateStore: { useExisting: PrismaRequestStateStore },
    clientInfoStore: { useExisting: PrismaClientInfoStore },
  };
}

/**
 * Stream mode's extension points (`McpModule.forRoot({ streams: true, ...mcpPrismaStreamExtensions() })`),
 * shared by every replica through PostgreSQL: sessions (`mcp_sessions`), replayable events
 * (`mcp_stream_events`) and the bus between replicas (LISTEN/NOTIFY, one connection per replica).
 * Their limits are `McpPrismaModule`'s `streams` option. A PostgreSQL that serves one connection at
 * a time (PGlite) cannot deliver a NOTIFY to another connection: keep the in-process event store
 * and bus there.
 */
export function mcpPrismaStreamExtensions(): Required<Pick<McpExtensionOptions, 'sessionStore' | 'eventStore' | 'messageBus'>> {
  const inject = [McpDatabase, MCP_PRISMA_OPTIONS];
  return {
    sessionStore: { useFactory: (database: McpDatabase) => new PostgresSessionStore(database), inject },
    eventStore: {
      useFactory: (database: McpDatabase, options: ResolvedMcpPrismaOptions) => new PostgresEventStore(database, options.streams.limits),
      inject,
    },
    messageBus: {
      useFactory: (database: McpDatabase, options: ResolvedMcpPrismaOptions) =>
        new PostgresMessageBus(database, options.streams.busChannel),
      inject,
    },
  };
}

/**
 * MCP tasks' extension points (`McpModule.forRoot({ ...mcpPrismaTaskExtensions(), taskCallers, … })`),
 * shared by every replica through PostgreSQL: the tasks (`mcp_tasks`, written in the call's
 * transaction) and the pg-boss queue that runs them on any replica (`pg-boss`, an optional peer
 * dependency: install it). How many run here is `McpPrismaModule`'s `tasks` option. The
 * application still says how a run acts as its caller again (`taskCallers`): that is its identity.
 */
export function mcpPrismaTaskExtensions(): Required<Pick<McpExtensionOptions, 'taskStore' | 'taskQueue'>> {
  return {
    taskStore: { useExisting: PostgresTaskStore },
    taskQueue: { useExisting: PgBossTaskQueue },
  };
}
