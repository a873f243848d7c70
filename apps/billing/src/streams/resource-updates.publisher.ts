import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { readEnvironment } from '../config/environment.js';
import { MCP_RESOURCE_UPDATED_CHANNEL, type McpResourceUpdatedEvent } from '@nest-mcp/core';
import { PrismaService } from '../database/prisma.service.js';
import { setResourceChangeSink, type ResourceChange } from '../database/resource-changes.extension.js';
import { StreamBackends } from './stream-backends.factory.js';

export const invoiceUri = (id: string) => `billing://invoices/${id}`;
export const customerUri = (id: string) => `billing://customers/${id}`;

/**
 * Announces on the bus (`MCP_RESOURCE_UPDATED_CHANNEL`, `{ uri }`) each billing resource a
 * committed write changed, for the stream layer to notify the sessions subscribed to it on any
 * replica. After the commit, never inside the transaction, and off the request's path: a bus
 * that cannot take it costs a warning, not the write.
 */
@Injectable()
export class ResourceUpdatesPublisher implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpResourceUpdates');

  constructor(
    private readonly prisma: PrismaService,
    @Inject(StreamBackends) private readonly backends: StreamBackends,
  ) {}

  onModuleInit(): void {
    // Nobody can subscribe without stream mode: no lookup, no publish on every write.
    if (!readEnvironment().mcpStreams) return;
    setResourceChangeSink((change) => this.prisma.afterCommit(() => void this.publish(change)));
  }

  onApplicationShutdown(): void {
    setResourceChangeSink(undefined);
  }

  async publish(change: ResourceChange): Promise<void> {
    try {
      const customerIds = new Set(change.customerIds);
      if (change.invoicesWithoutCustomer.length) {
        const rows = await this.prisma.client.invoice.findMany({
          where: { id: { in: change.invoicesWithoutCustomer } },
          select: { customerId: true },
        });
        for (const row of rows) customerIds.add(row.customerId);
      }
      const uris = [...new Set(change.invoiceIds)].map(invoiceUri).concat([...customerIds].map(customerUri));
      await Promise.all(
        uris.map((uri) => this.backends.bus.publish(MCP_RESOURCE_UPDATED_CHANNEL, { uri } satisfies McpResourceUpdatedEvent)),
      );
    } catch (error) {
      this.logger.warn(`Resource-updated notification not published: ${(error as Error).message}`);
    }
  }
}
