import { Module } from '@nestjs/common';

/** Liveness, readiness and graceful shutdown (placeholder: being built). */
@Module({})
export class HealthModule {}
