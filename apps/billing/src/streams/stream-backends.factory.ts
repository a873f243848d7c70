import { Logger } from '@nestjs/common';
import {
  InMemoryEventStore,
  InMemorySessionStore,
  InProcessMessageBus,
  type McpEventStore,
  type McpMessageBus,
  type McpSessionStore,
} from '@nest-mcp/core/extensions';
import { PostgresEventStore, PostgresMessageBus, PostgresSessionStore } from '@nest-mcp/prisma';
import { RedisConnection, RedisEventStore, RedisMessageBus, RedisSessionStore } from '@nest-mcp/redis';
import type { PrismaService } from '../database/prisma.service.js';
import type { StreamsConfig } from './streams.config.js';
import { redactUrl } from '../common/redact-url.js';

/** The three shared backends of stream mode, and how to close their connections. */
export class StreamBackends {
  private constructor(
    readonly sessions: McpSessionStore,
    readonly events: McpEventStore,
    readonly bus: McpMessageBus,
    readonly close: () => Promise<void>,
  ) {}

  /**
   * Redis for all three when `REDIS_URL` is set (never a silent fallback to this process while it
   * is down: replicas would split; its commands fail until it is back, the boot does not wait). Else the database
   * (`@nest-mcp/prisma`'s stores): tables for sessions and events, LISTEN/NOTIFY for the bus. On the embedded database (PGlite: one process, one transaction at a time, no
   * NOTIFY to other connections) sessions stay in their table, events and the bus in-process.
   */
  /** For an application with stream mode off: nothing to share, no connection. */
  static inProcess(): StreamBackends {
    return new StreamBackends(new InMemorySessionStore(), new InMemoryEventStore(), new InProcessMessageBus(), async () => undefined);
  }

  static async create(config: StreamsConfig, prisma: PrismaService): Promise<StreamBackends> {
    const logger = new Logger('McpStreams');
    const limits = { retentionMs: config.eventRetentionMs, maxPerStream: config.maxEventsPerStream };
    let backends: StreamBackends;
    if (config.redisUrl) {
      const redis = new RedisConnection(config.redisUrl, config.keyPrefix);
      redis.connectInBackground();
      backends = new StreamBackends(new RedisSessionStore(redis), new RedisEventStore(redis, limits), new RedisMessageBus(redis), () =>
        redis.close(),
      );
      logger.log(`Shared stream state in Redis ${redactUrl(config.redisUrl)} (sessions, events: Redis Streams, bus: pub/sub)`);
    } else if (await isEmbedded(prisma)) {
      backends = new StreamBackends(
        new PostgresSessionStore(prisma),
        new InMemoryEventStore(10_000, limits.retentionMs),
        new InProcessMessageBus(),
        async () => undefined,
      );
      logger.log(
        'Shared stream state: sessions in the embedded database; events and bus in-process (the embedded database serves one process)',
      );
    } else {
      const bus = new PostgresMessageBus(prisma, `${config.keyPrefix}_bus`);
      backends = new StreamBackends(new PostgresSessionStore(prisma), new PostgresEventStore(prisma, limits), bus, () => bus.close());
      logger.log('Shared stream state in PostgreSQL (sessions: mcp_sessions, events: mcp_stream_events, bus: LISTEN/NOTIFY)');
    }
    return backends;
  }
}

async function isEmbedded(prisma: PrismaService): Promise<boolean> {
  const [row] = await prisma.client.$queryRaw<Array<{ version: string }>>`SELECT version()`;
  return !!row?.version.includes('PGlite');
}
