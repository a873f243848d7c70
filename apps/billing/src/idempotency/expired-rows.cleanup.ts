import { Inject, Injectable } from '@nestjs/common';
import { PeriodicCleanup } from '../common/periodic-cleanup.js';
import { PrismaService } from '../database/prisma.service.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * Deletes expired idempotency records and request-state uses now and then. Only housekeeping:
 * an expired key is reused on its next claim and an expired `requestState` fails its own expiry
 * check, so correctness never waits for this. Off in tests (see `idempotencyConfigFromEnv`).
 */
@Injectable()
export class ExpiredRowsCleanup extends PeriodicCleanup {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(IDEMPOTENCY_CONFIG) config: IdempotencyConfig,
  ) {
    super({ loggerName: 'IdempotencyCleanup', rows: 'expired idempotency rows', intervalMs: config.cleanupIntervalMs });
  }

  // The database's clock, not `now`: it is the one that wrote `expires_at`.
  protected async deleteExpired(): Promise<number> {
    const records = await this.prisma.client.$executeRaw`DELETE FROM idempotency_records WHERE expires_at < (now() AT TIME ZONE 'UTC')`;
    const uses = await this.prisma.client.$executeRaw`DELETE FROM request_state_uses WHERE expires_at < (now() AT TIME ZONE 'UTC')`;
    return records + uses;
  }
}
