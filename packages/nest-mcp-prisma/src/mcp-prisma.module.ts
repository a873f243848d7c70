import { Module } from '@nestjs/common';
import type { McpExtensionOptions } from '@nest-mcp/core';
import { McpAuditHook } from './audit/mcp-audit.hook.js';
import { McpAuditLog } from './audit/mcp-audit-log.js';
import { API_CHANNEL } from './channel/mcp-channel.js';
import { ExpiredRowsCleanup } from './cleanup/expired-rows.cleanup.js';
import { McpDatabase } from './database/mcp-database.js';
import { PrismaIdempotencyStore } from './idempotency/prisma-idempotency.store.js';
import { MCP_PRISMA_MODULE_OPTIONS, McpPrismaConfigurableModule } from './mcp-prisma.module-definition.js';
import { MCP_PRISMA_OPTIONS, type McpPrismaOptions, type ResolvedMcpPrismaOptions } from './options/mcp-prisma.options.js';
import { PrismaClientInfoStore } from './stores/prisma-client-info.store.js';
import { PrismaRequestStateStore } from './stores/prisma-request-state.store.js';
import { PostgresEventStore } from './streams/postgres-event.store.js';
import { PostgresMessageBus } from './streams/postgres-message.bus.js';
import { PostgresSessionStore } from './streams/postgres-session.store.js';
import { StreamRowsCleanup } from './cleanup/stream-rows.cleanup.js';

const DAY_SECONDS = 24 * 3600;

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`McpPrismaModule: ${name} must be a whole number ≥ 1, got ${value}`);
  return value;
}

function resolveOptions(options: McpPrismaOptions): ResolvedMcpPrismaOptions {
  const ttlSeconds = options.idempotency?.ttlSeconds ?? DAY_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
    throw new Error(`McpPrismaModule: idempotency.ttlSeconds must be a whole number ≥ 1, got ${ttlSeconds}`);
  if (!!options.database === !!options.connection)
    throw new Error('McpPrismaModule: give either connection ({ url: "postgresql://…" }) or database (your own McpDatabase), not both');
  if (options.connection && !options.connection.url)
    throw new Error('McpPrismaModule: connection.url is required (the PostgreSQL database)');
  return {
    database: options.database ?? new McpDatabase(options.connection!),
    channel: options.channel ?? API_CHANNEL,
    givenChannel: options.channel,
    audit: { actor: options.audit?.actor ?? (() => ({})) },
    idempotency: { ttlSeconds, scope: options.idempotency?.scope },
    cleanupIntervalMs: options.cleanupIntervalMs ?? 3_600_000,
    streams: {
      limits: {
        retentionMs: positive('streams.eventRetentionMs', options.streams?.eventRetentionMs ?? 600_000),
        maxPerStream: positive('streams.maxEventsPerStream', options.streams?.maxEventsPerStream ?? 1000),
      },
      cleanupIntervalMs: options.streams ? (options.streams.cleanupIntervalMs ?? 60_000) : 0,
      busChannel: options.streams?.busChannel ?? 'mcp_bus',
    },
  };
}

/**
 * PostgreSQL through Prisma for `@nest-mcp/core`: `McpPrismaModule.forRoot({ connection: { url } })`
 * (or `forRootAsync`) once, in the root module; then `McpModule.forRoot({ ...mcpPrismaExtensions(), … })`
 * puts its hook and stores behind the layer's extension points. Build the application's Prisma
 * client on `McpDatabase.pool` so its queries join the call's transaction.
 */
@Module({
  providers: [
    { provide: MCP_PRISMA_OPTIONS, useFactory: resolveOptions, inject: [MCP_PRISMA_MODULE_OPTIONS] },
    { provide: McpDatabase, useFactory: (options: ResolvedMcpPrismaOptions) => options.database, inject: [MCP_PRISMA_OPTIONS] },
    McpAuditLog,
    McpAuditHook,
    PrismaIdempotencyStore,
    PrismaRequestStateStore,
    PrismaClientInfoStore,
    ExpiredRowsCleanup,
    {
      provide: StreamRowsCleanup,
      useFactory: (database: McpDatabase, options: ResolvedMcpPrismaOptions) => new StreamRowsCleanup(database, options.streams),
      inject: [McpDatabase, MCP_PRISMA_OPTIONS],
    },
  ],
  exports: [
    MCP_PRISMA_OPTIONS,
    McpDatabase,
    McpAuditLog,
    McpAuditHook,
    PrismaIdempotencyStore,
    PrismaRequestStateStore,
    PrismaClientInfoStore,
  ],
})
export class McpPrismaModule extends McpPrismaConfigurableModule {}

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
