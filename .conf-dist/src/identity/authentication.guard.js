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
import { RequestContext } from '../context/request-context.js';
import { AuthenticationService } from './authentication.service.js';
import { PUBLIC_ROUTE } from './public.decorator.js';
import { principalOf, setPrincipal } from './request-principal.js';
/**
 * Global guard: every route needs a valid token unless marked `@Public()`. For an MCP call it
 * runs on the endpoint (before any method, `server/discover` included) and again, as a no-op, when
 * the tool's own handler runs in-process.
 */
let AuthenticationGuard = class AuthenticationGuard {
    reflector;
    authentication;
    constructor(reflector, authentication) {
        this.reflector = reflector;
        this.authentication = authentication;
    }
    async canActivate(context) {
        if (this.reflector.getAllAndOverride(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]))
            return true;
        const req = context.switchToHttp().getRequest();
        if (principalOf(req))
            return true;
        const principal = await this.authentication.authenticate(req);
        setPrincipal(req, principal);
        const state = RequestContext.current();
        if (state)
            state.principal = principal;
        return true;
    }
};
AuthenticationGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector,
        AuthenticationService])
], AuthenticationGuard);
export { AuthenticationGuard };
//# sourceMappingURL=authentication.guard.js.map