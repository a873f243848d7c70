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
import { MCP_SCOPES_METADATA, } from '../mcp/index.js';
import { InsufficientScopeException, resourceMetadataUrl } from './auth-challenge.js';
import { IDENTITY_CONFIG } from './identity.config.js';
import { principalOf, requestWorkspace } from './request-principal.js';
import { highestRole, ROLE_SCOPES } from './roles.js';
import { WorkspaceResolver } from './workspace.resolver.js';
/**
 * The one place that decides whether a caller may use something: the token must carry every
 * scope it needs AND the person's role in the workspace must allow them. MCP lists, MCP calls and
 * REST routes all ask here, so a list never shows what a call would refuse.
 */
let ScopePolicy = class ScopePolicy {
    workspaces;
    config;
    static metadataKey = MCP_SCOPES_METADATA;
    constructor(workspaces, config) {
        this.workspaces = workspaces;
        this.config = config;
    }
    decide(principal, required, req) {
        if (!required.length)
            return { allowed: true };
        const roleScopes = this.roleScopes(principal, req);
        const missingFromToken = required.filter((scope) => !principal.scopes.includes(scope));
        const deniedByRole = required.filter((scope) => !roleScopes.includes(scope));
        return missingFromToken.length || deniedByRole.length ? { allowed: false, missingFromToken, deniedByRole } : { allowed: true };
    }
    /** Throws the 403 that says what is missing; returns when the caller may go on. */
    assert(principal, required, req) {
        const decision = this.decide(principal, required, req);
        if (!decision.allowed)
            throw this.refusal(decision, required);
    }
    canUse(capability, context) {
        const principal = principalOf(context.httpRequest);
        return !!principal && this.decide(principal, capability.scopes, context.httpRequest).allowed;
    }
    refuse(capability, context) {
        const principal = principalOf(context.httpRequest);
        const decision = principal ? this.decide(principal, capability.scopes, context.httpRequest) : undefined;
        return this.refusal(decision?.allowed === false ? decision : { allowed: false, missingFromToken: capability.scopes, deniedByRole: [] }, capability.scopes);
    }
    refusal(decision, required) {
        const metadataUrl = resourceMetadataUrl(this.config.publicUrl);
        if (decision.missingFromToken.length) {
            return new InsufficientScopeException(`Insufficient scope: this needs ${decision.missingFromToken.join(' ')}; get a token with that scope`, required, metadataUrl);
        }
        return new InsufficientScopeException(`Your role does not allow ${decision.deniedByRole.join(' ')} in this workspace; ask a workspace admin`, required, metadataUrl);
    }
    /** The role that counts: in the request's workspace when it is known, else the highest the person holds. */
    roleScopes(principal, req) {
        const named = requestWorkspace(req)?.id ?? this.workspaces.connectionWorkspace(req, principal);
        if (named) {
            const membership = this.workspaces.membership(principal, named);
            return membership ? ROLE_SCOPES[membership.role] : [];
        }
        const role = highestRole(principal.memberships.map((m) => m.role));
        return role ? ROLE_SCOPES[role] : [];
    }
};
ScopePolicy = __decorate([
    Injectable(),
    __param(1, Inject(IDENTITY_CONFIG)),
    __metadata("design:paramtypes", [WorkspaceResolver, Object])
], ScopePolicy);
export { ScopePolicy };
//# sourceMappingURL=scope.policy.js.map