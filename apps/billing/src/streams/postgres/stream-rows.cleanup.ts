import { Inject, Injectable } from '@nestjs/common';
import { PeriodicCleanup } from '@nest-mcp/prisma';
import { PrismaService } from '../../database/prisma.service.js';
import { STREAMS_CONFIG, type StreamsConfig } from '../streams.config.js';

/**
 * Deletes expired sessions and events older than the retention now and then. Only housekeeping:
 * the stores never answer with an expired row, so correctness never waits for this. Off in tests
 * and with Redis (keys expire there by themselves).
 */
@Injectable()
export class StreamRowsCleanup extends PeriodicCleanup {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(STREAMS_CONFIG) private readonly config: StreamsConfig,
  ) {
    super({ loggerName: 'McpStreamsCleanup', rows: 'expired stream rows', intervalMs: config.redisUrl ? 0 : config.cleanupIntervalMs });
  }

  protected async deleteExpired(now: Date): Promise<number> {
    const { count: sessions } = await this.prisma.client.mcpSession.deleteMany({ where: { expiresAt: { lte: now } } });
    const since = new Date(now.getTime() - this.config.eventRetentionMs);
    const { count: events } = await this.prisma.client.mcpStreamEvent.deleteMany({ where: { createdAt: { lt: since } } });
    return sessions + events;
  }
}
