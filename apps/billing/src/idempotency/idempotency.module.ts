import { Global, Module } from '@nestjs/common';
import { ExpiredRowsCleanup } from './expired-rows.cleanup.js';
import { PrismaIdempotencyStore } from './prisma-idempotency.store.js';

/**
 * Database-backed idempotency keys (MCP tool calls and REST writes), shared by every replica: the
 * MCP layer's `idempotencyStore`. Its cleanup also deletes expired `requestState` uses.
 * Global because REST routes anywhere use the store through `@IdempotentRoute()`.
 */
@Global()
@Module({
  providers: [PrismaIdempotencyStore, ExpiredRowsCleanup],
  // PrismaIdempotencyStore: for RestIdempotencyInterceptor, which @IdempotentRoute() attaches to REST writes.
  exports: [PrismaIdempotencyStore],
})
export class IdempotencyModule {}
