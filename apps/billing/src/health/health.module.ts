import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health.js';
import { HealthController } from './health.controller.js';
import { ShutdownState } from './shutdown.state.js';

/**
 * Liveness and readiness (`/health/live`, `/health/ready`) and the shutdown state that `main.ts`
 * sets on SIGTERM (see `graceful-shutdown.ts`).
 */
@Module({
  imports: [TerminusModule.forRoot()],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
