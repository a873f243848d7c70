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
import { McpExecutionContext } from '../mcp/index.js';
import { principalOf, setRequestWorkspace } from './request-principal.js';
import { WORKSPACE_SCOPED } from './workspace-scoped.decorator.js';
import { WorkspaceResolver } from './workspace.resolver.js';
/** Global guard for `@WorkspaceScoped()` routes and tools: resolves the workspace and checks membership. */
let WorkspaceGuard = class WorkspaceGuard {
    reflector;
    resolver;
    constructor(reflector, resolver) {
        this.reflector = reflector;
        this.resolver = resolver;
    }
    canActivate(context) {
        if (!this.reflector.getAllAndOverride(WORKSPACE_SCOPED, [context.getHandler(), context.getClass()]))
            return true;
        const req = context.switchToHttp().getRequest();
        const principal = principalOf(req);
        if (!principal)
            return false;
        // MCP: the tool's validated arguments; REST: the JSON body.
        const args = (McpExecutionContext.invocation(context)?.input ?? req.body);
        const membership = this.resolver.resolve(req, principal, args?.workspace_id);
        const workspace = { id: membership.workspaceId, slug: membership.slug };
        setRequestWorkspace(req, workspace);
        const state = RequestContext.current();
        if (state)
            state.workspace = workspace;
        return true;
    }
};
WorkspaceGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector,
        WorkspaceResolver])
], WorkspaceGuard);
export { WorkspaceGuard };
//# sourceMappingURL=workspace.guard.js.map