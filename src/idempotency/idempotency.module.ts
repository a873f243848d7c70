import { Global, Module } from '@nestjs/common';
import { MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE } from '../mcp/index.js';
import { ExpiredRowsCleanup } from './expired-rows.cleanup.js';
import { IDEMPOTENCY_CONFIG, idempotencyConfigFromEnv } from './idempotency.config.js';
import { PrismaIdempotencyStore } from './prisma-idempotency.store.js';
import { PrismaRequestStateStore } from './prisma-request-state.store.js';

/**
 * Database-backed idempotency keys (MCP tool calls and REST writes) and one-time multi round-trip
 * state, shared by every replica.
 * Global so that the MCP layer finds the stores under its tokens.
 */
@Global()
@Module({
  providers: [
    { provide: IDEMPOTENCY_CONFIG, useFactory: () => idempotencyConfigFromEnv() },
    PrismaIdempotencyStore,
    PrismaRequestStateStore,
    ExpiredRowsCleanup,
    { provide: MCP_IDEMPOTENCY_STORE, useExisting: PrismaIdempotencyStore },
    { provide: MCP_REQUEST_STATE_STORE, useExisting: PrismaRequestStateStore },
  ],
  // PrismaIdempotencyStore: for RestIdempotencyInterceptor, which @IdempotentRoute() attaches to REST writes.
  exports: [MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE, PrismaIdempotencyStore],
})
export class IdempotencyModule {}
