import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MCP_EVENT_STORE, MCP_MESSAGE_BUS, MCP_SESSION_STORE } from '../mcp/streams/stream-backends.js';
import { PrismaService } from '../database/prisma.service.js';
import { StreamRowsCleanup } from './postgres/stream-rows.cleanup.js';
import { ResourceUpdatesPublisher } from './resource-updates.publisher.js';
import { StreamBackends } from './stream-backends.factory.js';
import { STREAMS_CONFIG, streamsConfigFromEnv, type StreamsConfig } from './streams.config.js';

/** Closes the backends' own connections (Redis, the LISTEN connection) when the application stops. */
@Injectable()
class StreamBackendsShutdown implements OnApplicationShutdown {
  constructor(@Inject(StreamBackends) private readonly backends: StreamBackends) {}

  async onApplicationShutdown(): Promise<void> {
    await this.backends.close();
  }
}

/**
 * Stream mode's shared backends for the MCP layer (sessions, replayable events, the bus between
 * replicas), in Redis or PostgreSQL, and the resource-updated announcements of billing writes.
 * Global so that the MCP layer finds the backends under its tokens, as it finds the idempotency
 * store.
 */
@Global()
@Module({
  providers: [
    { provide: STREAMS_CONFIG, useFactory: () => streamsConfigFromEnv() },
    {
      provide: StreamBackends,
      useFactory: (config: StreamsConfig, prisma: PrismaService) => StreamBackends.create(config, prisma),
      inject: [STREAMS_CONFIG, PrismaService],
    },
    { provide: MCP_SESSION_STORE, useFactory: (backends: StreamBackends) => backends.sessions, inject: [StreamBackends] },
    { provide: MCP_EVENT_STORE, useFactory: (backends: StreamBackends) => backends.events, inject: [StreamBackends] },
    { provide: MCP_MESSAGE_BUS, useFactory: (backends: StreamBackends) => backends.bus, inject: [StreamBackends] },
    StreamBackendsShutdown,
    StreamRowsCleanup,
    ResourceUpdatesPublisher,
  ],
  exports: [MCP_SESSION_STORE, MCP_EVENT_STORE, MCP_MESSAGE_BUS],
})
export class StreamsModule {}
