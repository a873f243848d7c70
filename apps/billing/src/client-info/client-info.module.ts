import { Module } from '@nestjs/common';
import { PrismaClientInfoStore } from './prisma-client-info.store.js';

/**
 * What each caller's 2025-era MCP client called itself in `initialize`, shared by every replica
 * through Postgres: the MCP layer's `clientInfoStore` (stateless mode). Rows of callers that have
 * not initialized for 30 days are deleted by the idempotency module's `ExpiredRowsCleanup`.
 */
@Module({
  providers: [PrismaClientInfoStore],
  exports: [PrismaClientInfoStore],
})
export class ClientInfoModule {}
