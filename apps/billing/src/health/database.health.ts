import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service.js';
import { readEnvironment } from '../config/environment.js';

/** How long readiness waits for `SELECT 1` (a pool connection included) before it says "down". */
export function readinessTimeoutMs(): number {
  return readEnvironment().healthDatabaseTimeoutMs;
}

/**
 * The database answers `SELECT 1` within a short timeout. Concurrent probes share one query, and
 * an answer is reused for 500 ms, so a burst of probes costs one round trip.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly prisma: PrismaService,
  ) {}

  ping(key = 'database') {
    return this.indicators
      .check(key)
      .attempt(async () => {
        await this.prisma.client.$queryRaw`SELECT 1`;
      })
      .withTimeout(readinessTimeoutMs())
      .cacheFor(500);
  }
}
