import { Global, Module } from '@nestjs/common';

/** Database-backed idempotency keys and one-time multi round-trip state (placeholder: being built). */
@Global()
@Module({})
export class IdempotencyModule {}
