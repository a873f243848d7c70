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
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpRegistry } from '../mcp/index.js';
import { AuthenticationService } from './authentication.service.js';
import { IDENTITY_CONFIG } from './identity.config.js';
import { Public } from './public.decorator.js';
import { ALL_SCOPES } from './roles.js';
/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): tells an MCP client which authorization
 * server issues tokens for this resource and which scopes exist. Served at the root and, per
 * RFC 9728 §3.1, at the path-suffixed location of the MCP endpoint.
 */
let ProtectedResourceController = class ProtectedResourceController {
    authentication;
    registry;
    config;
    constructor(authentication, registry, config) {
        this.authentication = authentication;
        this.registry = registry;
        this.config = config;
    }
    metadata() {
        const declared = [...this.registry.tools, ...this.registry.resources, ...this.registry.templates, ...this.registry.prompts].flatMap((entry) => entry.scopes);
        return {
            resource: this.authentication.resourceUrl,
            authorization_servers: this.config.jwtIssuer ? [this.config.jwtIssuer] : [],
            scopes_supported: [...new Set([...ALL_SCOPES, ...declared])].sort(),
            bearer_methods_supported: ['header'],
            resource_name: 'Billing MCP server',
        };
    }
};
__decorate([
    Get(['oauth-protected-resource', 'oauth-protected-resource/*path']),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ProtectedResourceController.prototype, "metadata", null);
ProtectedResourceController = __decorate([
    ApiExcludeController(),
    Public(),
    Controller('.well-known'),
    __param(2, Inject(IDENTITY_CONFIG)),
    __metadata("design:paramtypes", [AuthenticationService,
        McpRegistry, Object])
], ProtectedResourceController);
export { ProtectedResourceController };
//# sourceMappingURL=protected-resource.controller.js.map