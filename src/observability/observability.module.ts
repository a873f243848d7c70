import { Module } from '@nestjs/common';

/** Tracing and structured logs (placeholder: being built). */
@Module({})
export class ObservabilityModule {}
