import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CORE_CONFIG, type CoreConfig } from '../config/environment.js';
import { McpResourceUpdates } from '@nest-mcp/core';
import { PrismaService } from '../database/prisma.service.js';
import { setResourceChangeSink, type ResourceChange } from '../database/resource-changes.extension.js';

export const invoiceUri = (id: string) => `billing://invoices/${id}`;
export const customerUri = (id: string) => `billing://customers/${id}`;

/**
 * Announces to the MCP layer (`McpResourceUpdates.changed`) each billing resource a committed
 * write changed, whatever its channel (REST, MCP, admin pages): the layer notifies the sessions
 * subscribed to it, on whichever replica holds their stream. After the commit, never inside the
 * transaction, and off the request's path: an announcement that fails costs a warning, not the write.
 */
@Injectable()
export class ResourceUpdatesPublisher implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpResourceUpdates');

  constructor(
    private readonly prisma: PrismaService,
    private readonly updates: McpResourceUpdates,
    @Inject(CORE_CONFIG) private readonly core: CoreConfig,
  ) {}

  onModuleInit(): void {
    // Nobody can subscribe without stream mode: no lookup, no publish on every write.
    if (!this.core.mcp.streams) return;
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
      await Promise.all(uris.map((uri) => this.updates.changed(uri)));
    } catch (error) {
      this.logger.warn(`Resource-updated notification not published: ${(error as Error).message}`);
    }
  }
}
