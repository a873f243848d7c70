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
import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { parseClientInfo } from '../protocol/client-info.js';
import { handshakeVersions, newestHandshakeVersion } from '../protocol/protocol-version.js';
/** `server/discover` (2026-07-28), `initialize` and `ping` (handshake era). */
let LifecycleHandler = class LifecycleHandler {
    options;
    constructor(options) {
        this.options = options;
    }
    discover() {
        return {
            supportedVersions: this.options.supportedVersions,
            capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
            instructions: this.options.instructions,
        };
    }
    /**
     * Negotiation, not an error: a version outside the handshake era (2026-07-28, or one this
     * server does not speak) is answered with the newest handshake version enabled (SPEC §2); the
     * client decides whether to go on.
     */
    initialize(params, context) {
        // Nothing keeps it (no sessions), but a client that describes itself must do so within bounds,
        // as in the 2026 envelope.
        parseClientInfo(params.clientInfo, 'params.clientInfo');
        const requested = params.protocolVersion;
        const versions = handshakeVersions(this.options);
        const protocolVersion = typeof requested === 'string' && versions.includes(requested) ? requested : (newestHandshakeVersion(this.options) ?? versions[0]);
        context.protocolVersion = protocolVersion;
        return {
            protocolVersion,
            capabilities: {
                tools: { listChanged: false },
                // Stream mode: subscriptions and log messages. No list changes: tools, resources and
                // prompts are found once, at bootstrap, and never change while the server runs.
                resources: { subscribe: !!this.options.streams, listChanged: false },
                prompts: { listChanged: false },
                completions: {},
                ...(this.options.streams ? { logging: {} } : {}),
            },
            serverInfo: this.options.serverInfo,
            instructions: this.options.instructions,
        };
    }
    ping() {
        return {};
    }
};
LifecycleHandler = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], LifecycleHandler);
export { LifecycleHandler };
//# sourceMappingURL=lifecycle.handler.js.map