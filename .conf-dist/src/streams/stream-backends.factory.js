import { Logger } from '@nestjs/common';
import { InProcessEventStore } from './in-process/in-process-event.store.js';
import { InProcessMessageBus } from './in-process/in-process-message.bus.js';
import { PostgresEventStore } from './postgres/postgres-event.store.js';
import { PostgresMessageBus } from './postgres/postgres-message.bus.js';
import { PostgresSessionStore } from './postgres/postgres-session.store.js';
import { RedisConnection } from './redis/redis-connection.js';
import { RedisEventStore } from './redis/redis-event.store.js';
import { RedisMessageBus } from './redis/redis-message.bus.js';
import { RedisSessionStore } from './redis/redis-session.store.js';
/** The three shared backends of stream mode, and how to close their connections. */
export class StreamBackends {
    sessions;
    events;
    bus;
    close;
    constructor(sessions, events, bus, close) {
        this.sessions = sessions;
        this.events = events;
        this.bus = bus;
        this.close = close;
    }
    /**
     * Redis for all three when `REDIS_URL` is set (never a silent fallback to this process while it
     * is down: replicas would split; its commands fail until it is back, the boot does not wait). Else the database: tables for sessions and events, LISTEN/NOTIFY
     * for the bus. On the embedded database (PGlite: one process, one transaction at a time, no
     * NOTIFY to other connections) sessions stay in their table, events and the bus in-process.
     */
    static async create(config, prisma) {
        const logger = new Logger('McpStreams');
        const limits = { retentionMs: config.eventRetentionMs, maxPerStream: config.maxEventsPerStream };
        let backends;
        if (config.redisUrl) {
            const redis = new RedisConnection(config.redisUrl, config.keyPrefix);
            redis.connectInBackground();
            backends = new StreamBackends(new RedisSessionStore(redis), new RedisEventStore(redis, limits), new RedisMessageBus(redis), () => redis.close());
            logger.log(`Shared stream state in Redis ${redactUrl(config.redisUrl)} (sessions, events: Redis Streams, bus: pub/sub)`);
        }
        else if (await isEmbedded(prisma)) {
            backends = new StreamBackends(new PostgresSessionStore(prisma), new InProcessEventStore(limits), new InProcessMessageBus(), async () => undefined);
            logger.log('Shared stream state: sessions in the embedded database; events and bus in-process (the embedded database serves one process)');
        }
        else {
            const bus = new PostgresMessageBus(process.env.DATABASE_URL, (channel, payload) => prisma.client.$executeRaw `SELECT pg_notify(${channel}, ${payload})`, `${config.keyPrefix}_bus`);
            backends = new StreamBackends(new PostgresSessionStore(prisma), new PostgresEventStore(prisma, config), bus, () => bus.close());
            logger.log('Shared stream state in PostgreSQL (sessions: mcp_sessions, events: mcp_stream_events, bus: LISTEN/NOTIFY)');
        }
        return backends;
    }
}
async function isEmbedded(prisma) {
    const [row] = await prisma.client.$queryRaw `SELECT version()`;
    return !!row?.version.includes('PGlite');
}
function redactUrl(url) {
    const parsed = new URL(url);
    if (parsed.password)
        parsed.password = '***';
    return parsed.toString();
}
//# sourceMappingURL=stream-backends.factory.js.map