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
import { Reflector } from '@nestjs/core';
import { MCP_SCOPES_METADATA } from '../mcp/index.js';
import { principalOf } from './request-principal.js';
import { ScopePolicy } from './scope.policy.js';
/** Global guard: `@RequiredScopes()` on a route (or its controller), checked by the scope policy. */
let ScopeGuard = class ScopeGuard {
    reflector;
    policy;
    constructor(reflector, policy) {
        this.reflector = reflector;
        this.policy = policy;
    }
    canActivate(context) {
        const required = this.reflector.getAllAndOverride(MCP_SCOPES_METADATA, [context.getHandler(), context.getClass()]);
        if (!required?.length)
            return true;
        const req = context.switchToHttp().getRequest();
        const principal = principalOf(req);
        if (!principal)
            return false;
        this.policy.assert(principal, required, req);
        return true;
    }
};
ScopeGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector,
        ScopePolicy])
], ScopeGuard);
export { ScopeGuard };
//# sourceMappingURL=scope.guard.js.map