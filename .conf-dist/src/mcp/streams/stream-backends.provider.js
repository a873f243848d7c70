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
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { InMemoryEventStore } from './in-process/in-memory-event.store.js';
import { InMemorySessionStore } from './in-process/in-memory-session.store.js';
import { InProcessMessageBus } from './in-process/in-process-message.bus.js';
import { MCP_EVENT_STORE, MCP_MESSAGE_BUS, MCP_SESSION_STORE, } from './stream-backends.js';
/**
 * The three backends stream mode runs on: the application's (shared by its replicas) when it
 * provides them under their tokens, else the in-process defaults (one replica). Says at boot
 * which one fills each, so a deployment of several replicas on in-process defaults is visible.
 */
let McpStreamBackends = class McpStreamBackends {
    options;
    sessions;
    events;
    bus;
    provided;
    constructor(options, sessions, events, bus) {
        this.options = options;
        this.provided = { sessions: !!sessions, events: !!events, bus: !!bus };
        this.sessions = sessions ?? new InMemorySessionStore();
        this.events = events ?? new InMemoryEventStore();
        this.bus = bus ?? new InProcessMessageBus();
    }
    onApplicationBootstrap() {
        if (!this.options.streams)
            return;
        const name = (backend, provided) => `${backend.constructor.name}${provided ? '' : ' (in-process: one replica only)'}`;
        new Logger('McpStreams').log(`Stream mode on. Sessions: ${name(this.sessions, this.provided.sessions)}; events: ${name(this.events, this.provided.events)}; ` +
            `bus: ${name(this.bus, this.provided.bus)}`);
    }
};
McpStreamBackends = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __param(1, Optional()),
    __param(1, Inject(MCP_SESSION_STORE)),
    __param(2, Optional()),
    __param(2, Inject(MCP_EVENT_STORE)),
    __param(3, Optional()),
    __param(3, Inject(MCP_MESSAGE_BUS)),
    __metadata("design:paramtypes", [Object, Object, Object, Object])
], McpStreamBackends);
export { McpStreamBackends };
//# sourceMappingURL=stream-backends.provider.js.map