import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE } from '../mcp/index.js';
import { ExpiredRowsCleanup } from './expired-rows.cleanup.js';
import { IDEMPOTENCY_CONFIG, idempotencyConfigFromEnv } from './idempotency.config.js';
import { PrismaIdempotencyStore } from './prisma-idempotency.store.js';
import { PrismaRequestStateStore } from './prisma-request-state.store.js';
import { RestIdempotencyInterceptor } from './rest-idempotency.interceptor.js';

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
    // REST writes marked @IdempotentRoute() claim their key in the same store, after the guards.
    { provide: APP_INTERCEPTOR, useClass: RestIdempotencyInterceptor },
  ],
  exports: [MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE],
})
export class IdempotencyModule {}
