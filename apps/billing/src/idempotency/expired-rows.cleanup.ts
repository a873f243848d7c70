import { Inject, Injectable } from '@nestjs/common';
import { PeriodicCleanup } from '../common/periodic-cleanup.js';
import { PrismaService } from '../database/prisma.service.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/** How long the client info of a caller that does not `initialize` again is kept (`mcp_client_infos`). */
export const CLIENT_INFO_RETENTION_DAYS = 30;

/**
 * Deletes expired idempotency records and request-state uses now and then, and the client infos
 * of callers that have not initialized for `CLIENT_INFO_RETENTION_DAYS`. Only housekeeping: an
 * expired key is reused on its next claim, an expired `requestState` fails its own expiry check,
 * and a client info is only a name (the caller's next `initialize` writes it again), so
 * correctness never waits for this. Off in tests (see `idempotencyConfigFromEnv`).
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
    const clients = await this.prisma.client.$executeRaw`
      DELETE FROM mcp_client_infos WHERE updated_at < (now() AT TIME ZONE 'UTC') - make_interval(days => ${CLIENT_INFO_RETENTION_DAYS})`;
    return records + uses + clients;
  }
}
