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
import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { MCP_EVENT_STORE, MCP_MESSAGE_BUS, MCP_SESSION_STORE } from '../mcp/streams/stream-backends.js';
import { PrismaService } from '../database/prisma.service.js';
import { StreamRowsCleanup } from './postgres/stream-rows.cleanup.js';
import { ResourceUpdatesPublisher } from './resource-updates.publisher.js';
import { StreamBackends } from './stream-backends.factory.js';
import { STREAMS_CONFIG, streamsConfigFromEnv } from './streams.config.js';
/** Closes the backends' own connections (Redis, the LISTEN connection) when the application stops. */
let StreamBackendsShutdown = class StreamBackendsShutdown {
    backends;
    constructor(backends) {
        this.backends = backends;
    }
    async onApplicationShutdown() {
        await this.backends.close();
    }
};
StreamBackendsShutdown = __decorate([
    Injectable(),
    __param(0, Inject(StreamBackends)),
    __metadata("design:paramtypes", [StreamBackends])
], StreamBackendsShutdown);
/**
 * Stream mode's shared backends for the MCP layer (sessions, replayable events, the bus between
 * replicas), in Redis or PostgreSQL, and the resource-updated announcements of billing writes.
 * Global so that the MCP layer finds the backends under its tokens, as it finds the idempotency
 * store.
 */
let StreamsModule = class StreamsModule {
};
StreamsModule = __decorate([
    Global(),
    Module({
        providers: [
            { provide: STREAMS_CONFIG, useFactory: () => streamsConfigFromEnv() },
            {
                provide: StreamBackends,
                useFactory: (config, prisma) => StreamBackends.create(config, prisma),
                inject: [STREAMS_CONFIG, PrismaService],
            },
            { provide: MCP_SESSION_STORE, useFactory: (backends) => backends.sessions, inject: [StreamBackends] },
            { provide: MCP_EVENT_STORE, useFactory: (backends) => backends.events, inject: [StreamBackends] },
            { provide: MCP_MESSAGE_BUS, useFactory: (backends) => backends.bus, inject: [StreamBackends] },
            StreamBackendsShutdown,
            StreamRowsCleanup,
            ResourceUpdatesPublisher,
        ],
        exports: [MCP_SESSION_STORE, MCP_EVENT_STORE, MCP_MESSAGE_BUS],
    })
], StreamsModule);
export { StreamsModule };
//# sourceMappingURL=streams.module.js.map