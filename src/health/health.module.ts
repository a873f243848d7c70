import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health.js';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { HealthController } from './health.controller.js';
import { ShutdownState } from './shutdown.state.js';

/**
 * Liveness and readiness (`/health/live`, `/health/ready`), the REST answer to a database outage
 * (`503` + `Retry-After`), and the shutdown state that `main.ts` sets on SIGTERM
 * (see `graceful-shutdown.ts`).
 */
@Module({
  imports: [TerminusModule.forRoot()],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, ShutdownState, { provide: APP_FILTER, useClass: DatabaseUnavailableFilter }],
  exports: [ShutdownState],
})
export class HealthModule {}
