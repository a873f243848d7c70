import { Module } from '@nestjs/common';
import { PrismaRequestStateStore } from './prisma-request-state.store.js';

/**
 * One-time use of multi round-trip `requestState` (in-chat confirmations, questions), shared by
 * every replica through Postgres: the MCP layer's `requestStateStore`. Expired uses are deleted by
 * the idempotency module's `ExpiredRowsCleanup`, with the expired idempotency records.
 */
@Module({
  providers: [PrismaRequestStateStore],
  exports: [PrismaRequestStateStore],
})
export class RequestStateModule {}
