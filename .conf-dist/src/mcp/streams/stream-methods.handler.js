var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { CapabilityAccess } from '../handlers/capability-access.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { isLoggingLevel } from './call-stream.js';
import { McpSessions } from './mcp-sessions.js';
/**
 * The handshake-era methods that only exist in stream mode, because they change the session:
 * `logging/setLevel` (the least severe level the client wants) and `resources/subscribe` /
 * `resources/unsubscribe` (which URIs get `notifications/resources/updated` on the GET stream).
 */
let StreamMethodsHandler = class StreamMethodsHandler {
    sessions;
    registry;
    access;
    constructor(sessions, registry, access) {
        this.sessions = sessions;
        this.registry = registry;
        this.access = access;
    }
    async setLevel(params, context) {
        if (!isLoggingLevel(params.level)) {
            throw McpProtocolError.invalidParams('Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency');
        }
        await this.sessions.setLogLevel(sessionOf(context), params.level);
        return {};
    }
    async subscribe(params, context, subscribed) {
        const uri = params.uri;
        if (typeof uri !== 'string' || !uri)
            throw McpProtocolError.invalidParams('Invalid params: "uri" is required');
        if (subscribed) {
            // Only what the caller could read: a subscription must not reveal updates of a hidden resource.
            const entry = this.registry.resource(uri) ?? this.registry.matchTemplate(uri)?.entry;
            if (!entry)
                throw McpProtocolError.invalidParams(`Unknown resource: ${uri}`, { uri });
            this.access.assert('resource', entry, context);
        }
        await this.sessions.setSubscribed(sessionOf(context), uri, subscribed);
        return {};
    }
};
StreamMethodsHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpSessions,
        McpRegistry,
        CapabilityAccess])
], StreamMethodsHandler);
export { StreamMethodsHandler };
function sessionOf(context) {
    // The controller resolves the session of every handshake-era request in stream mode.
    if (!context.session)
        throw McpProtocolError.invalidRequest('Bad request: this method needs a session (Mcp-Session-Id)');
    return context.session;
}
//# sourceMappingURL=stream-methods.handler.js.map