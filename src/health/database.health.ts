import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service.js';

/** How long readiness waits for `SELECT 1` (a pool connection included) before it says "down". */
export function readinessTimeoutMs(): number {
  const value = Number(process.env.HEALTH_DB_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : 2_000;
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
