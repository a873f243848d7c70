import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { STREAMS_CONFIG, type StreamsConfig } from '../streams.config.js';

/**
 * Deletes expired sessions and events older than the retention now and then. Only housekeeping:
 * the stores never answer with an expired row, so correctness never waits for this. Off in tests
 * and with Redis (keys expire there by themselves).
 */
@Injectable()
export class StreamRowsCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpStreamsCleanup');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(STREAMS_CONFIG) private readonly config: StreamsConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.cleanupIntervalMs || this.config.redisUrl) return;
    this.timer = setInterval(() => void this.run(), this.config.cleanupIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Deletes what expired; returns how many rows went. */
  async run(now = new Date()): Promise<number> {
    try {
      const { count: sessions } = await this.prisma.client.mcpSession.deleteMany({ where: { expiresAt: { lte: now } } });
      const since = new Date(now.getTime() - this.config.eventRetentionMs);
      const { count: events } = await this.prisma.client.mcpStreamEvent.deleteMany({ where: { createdAt: { lt: since } } });
      return sessions + events;
    } catch (error) {
      this.logger.warn(`Cleanup of expired stream rows failed (retried next time): ${(error as Error).message}`);
      return 0;
    }
  }
}
