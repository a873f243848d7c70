import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service.js';
import { CORE_CONFIG, type CoreConfig } from '../config/environment.js';

/**
 * The database answers `SELECT 1` within HEALTH_DB_TIMEOUT_MS (a pool connection included). Concurrent probes share one query, and
 * an answer is reused for 500 ms, so a burst of probes costs one round trip.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly prisma: PrismaService,
    @Inject(CORE_CONFIG) private readonly core: CoreConfig,
  ) {}

  ping(key = 'database') {
    return this.indicators
      .check(key)
      .attempt(async () => {
        await this.prisma.client.$queryRaw`SELECT 1`;
      })
      .withTimeout(this.core.health.databaseTimeoutMs)
      .cacheFor(500);
  }
}
