var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_MESSAGE_BUS, MCP_RESOURCE_UPDATED_CHANNEL } from '../mcp/streams/stream-backends.js';
import { PrismaService } from '../database/prisma.service.js';
import { setResourceChangeSink } from './resource-changes.extension.js';
export const invoiceUri = (id) => `billing://invoices/${id}`;
export const customerUri = (id) => `billing://customers/${id}`;
/**
 * Announces on the bus (`MCP_RESOURCE_UPDATED_CHANNEL`, `{ uri }`) each billing resource a
 * committed write changed, for the stream layer to notify the sessions subscribed to it on any
 * replica. After the commit, never inside the transaction, and off the request's path: a bus
 * that cannot take it costs a warning, not the write.
 */
let ResourceUpdatesPublisher = class ResourceUpdatesPublisher {
    prisma;
    bus;
    logger = new Logger('McpResourceUpdates');
    constructor(prisma, bus) {
        this.prisma = prisma;
        this.bus = bus;
    }
    onModuleInit() {
        setResourceChangeSink((change) => this.prisma.afterCommit(() => void this.publish(change)));
    }
    onApplicationShutdown() {
        setResourceChangeSink(undefined);
    }
    async publish(change) {
        try {
            const customerIds = new Set(change.customerIds);
            if (change.invoicesWithoutCustomer.length) {
                const rows = await this.prisma.client.invoice.findMany({ where: { id: { in: change.invoicesWithoutCustomer } }, select: { customerId: true } });
                for (const row of rows)
                    customerIds.add(row.customerId);
            }
            const uris = [...new Set(change.invoiceIds)].map(invoiceUri).concat([...customerIds].map(customerUri));
            await Promise.all(uris.map((uri) => this.bus.publish(MCP_RESOURCE_UPDATED_CHANNEL, { uri })));
        }
        catch (error) {
            this.logger.warn(`Resource-updated notification not published: ${error.message}`);
        }
    }
};
ResourceUpdatesPublisher = __decorate([
    Injectable(),
    __param(1, Inject(MCP_MESSAGE_BUS)),
    __metadata("design:paramtypes", [PrismaService, Object])
], ResourceUpdatesPublisher);
export { ResourceUpdatesPublisher };
//# sourceMappingURL=resource-updates.publisher.js.map