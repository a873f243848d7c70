import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * Deletes expired idempotency records and request-state uses now and then. Only housekeeping:
 * an expired key is reused on its next claim and an expired `requestState` fails its own expiry
 * check, so correctness never waits for this. Off in tests (see `idempotencyConfigFromEnv`).
 */
@Injectable()
export class ExpiredRowsCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyCleanup');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(IDEMPOTENCY_CONFIG) private readonly config: IdempotencyConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.cleanupIntervalMs) return;
    this.timer = setInterval(() => void this.run(), this.config.cleanupIntervalMs);
    this.timer.unref(); // never what keeps the process alive
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Deletes what expired; returns how many rows went. */
  async run(): Promise<number> {
    try {
      const records = await this.prisma.client.$executeRaw`DELETE FROM idempotency_records WHERE expires_at < (now() AT TIME ZONE 'UTC')`;
      const uses = await this.prisma.client.$executeRaw`DELETE FROM request_state_uses WHERE expires_at < (now() AT TIME ZONE 'UTC')`;
      return records + uses;
    } catch (error) {
      this.logger.warn(`Cleanup of expired idempotency rows failed (retried next time): ${(error as Error).message}`);
      return 0;
    }
  }
}
