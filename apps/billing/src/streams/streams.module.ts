import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { CORE_CONFIG, type CoreConfig } from '../config/environment.js';
import { PrismaService } from '../database/prisma.service.js';
import { ResourceUpdatesPublisher } from './resource-updates.publisher.js';
import { StreamBackends } from './stream-backends.factory.js';
import { STREAMS_CONFIG, type StreamsConfig } from './streams.config.js';

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
 * replicas), in Redis or PostgreSQL (`@nest-mcp/prisma`'s stores, whose rows its cleanup deletes: see
 * app.mcp-prisma.ts), and the resource-updated announcements of billing writes.
 * The app hands `StreamBackends` to `McpModule.forRoot` (`sessionStore`, `eventStore`,
 * `messageBus`). With stream mode off (`MCP_STREAMS`, `CORE_CONFIG`'s `mcp.streams`) it opens no connection and announces nothing.
 */
@Module({
  providers: [
    {
      provide: StreamBackends,
      // Stream mode off: nothing can use the backends, so they open no connection.
      useFactory: (core: CoreConfig, streams: StreamsConfig, prisma: PrismaService) =>
        core.mcp.streams ? StreamBackends.create(streams, prisma) : StreamBackends.inProcess(),
      inject: [CORE_CONFIG, STREAMS_CONFIG, PrismaService],
    },
    StreamBackendsShutdown,
    ResourceUpdatesPublisher,
  ],
  exports: [StreamBackends],
})
export class StreamsModule {}
