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
import { McpStreamBackends } from './stream-backends.provider.js';
import { MCP_RESOURCE_UPDATED_CHANNEL } from './stream-backends.js';
/** What an application calls when a resource changed, if it has no shared bus of its own to publish on. */
let McpResourceUpdates = class McpResourceUpdates {
    backends;
    constructor(backends) {
        this.backends = backends;
    }
    /** Announces that the resource at `uri` changed: subscribed sessions get `notifications/resources/updated`. */
    async changed(uri) {
        await this.backends.bus.publish(MCP_RESOURCE_UPDATED_CHANNEL, { uri });
    }
};
McpResourceUpdates = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpStreamBackends])
], McpResourceUpdates);
export { McpResourceUpdates };
//# sourceMappingURL=mcp-resource-updates.js.map