import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { PublicRoute } from '@nest-mcp/auth';
import { DatabaseHealthIndicator } from './database.health.js';
import { ShutdownState } from './shutdown.state.js';

/**
 * Probes for orchestrators and load balancers, without a token:
 * - `GET /health/live`: the process runs and serves HTTP (no database: a database outage must not
 *   get healthy replicas restarted);
 * - `GET /health/ready`: this replica should get traffic: the database answers within a short
 *   timeout and no shutdown has begun. `503` otherwise.
 */
@ApiTags('health')
@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: DatabaseHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([() => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) })]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    const shutdown = this.indicators.check('shutdown');
    // Shutting down: not ready whatever the database says (and no query for a pool about to close).
    if (this.shutdown.shuttingDown) return this.health.check([() => shutdown.down({ message: 'shutting down' })]);
    return this.health.check([() => shutdown.up(), () => this.database.ping()]);
  }
}
