import { Module } from '@nestjs/common';
import { McpAuditHook } from './audit/mcp-audit.hook.js';
import { McpAuditLog } from './audit/mcp-audit-log.js';
import { ExpiredRowsCleanup } from './cleanup/expired-rows.cleanup.js';
import { McpDatabase } from './database/mcp-database.js';
import { PrismaIdempotencyStore } from './idempotency/prisma-idempotency.store.js';
import { MCP_PRISMA_MODULE_OPTIONS, McpPrismaConfigurableModule } from './mcp-prisma.module-definition.js';
import { MCP_PRISMA_OPTIONS, type ResolvedMcpPrismaOptions } from './options/mcp-prisma.options.js';
import { resolveMcpPrismaOptions } from './options/resolve-options.js';
import { PrismaClientInfoStore } from './stores/prisma-client-info.store.js';
import { PrismaRequestStateStore } from './stores/prisma-request-state.store.js';
import { StreamRowsCleanup } from './cleanup/stream-rows.cleanup.js';
import { PgBossTaskQueue } from './tasks/pg-boss-task.queue.js';
import { PostgresTaskStore } from './tasks/postgres-task.store.js';

/**
 * PostgreSQL through Prisma for `@nest-mcp/core`: `McpPrismaModule.forRoot({ connection: { url } })`
 * (or `forRootAsync`) once, in the root module; then `McpModule.forRoot({ ...mcpPrismaExtensions(), … })`
 * puts its hook and stores behind the layer's extension points (mcp-prisma.extensions.ts). Build the application's Prisma
 * client on `McpDatabase.pool` so its queries join the call's transaction.
 */
@Module({
  providers: [
    { provide: MCP_PRISMA_OPTIONS, useFactory: resolveMcpPrismaOptions, inject: [MCP_PRISMA_MODULE_OPTIONS] },
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
    PostgresTaskStore,
    {
      // Inert until the layer starts it (`mcpPrismaTaskExtensions()`): pg-boss is loaded then, never by an app without tasks.
      provide: PgBossTaskQueue,
      useFactory: (database: McpDatabase, options: ResolvedMcpPrismaOptions) => new PgBossTaskQueue(database, options.tasks),
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
    PostgresTaskStore,
    PgBossTaskQueue,
  ],
})
export class McpPrismaModule extends McpPrismaConfigurableModule {}
