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
import { principalOf, requestWorkspace } from '../identity/request-principal.js';
import { WorkspaceResolver } from '../identity/workspace.resolver.js';
import { MCP_BODY_READ } from '../mcp/index.js';
import { RateLimitCostPolicy } from './rate-limit-cost.policy.js';
import { RATE_LIMIT_CONFIG } from './rate-limit.config.js';
import { RateLimitExceededException, rateLimitProtocolError } from './rate-limit.exception.js';
import { RATE_LIMIT_STORE } from './store/rate-limit.store.js';
const CHARGED = Symbol('rateLimit:charged');
/**
 * Global guard, registered after the identity guards (it needs the principal they set): charges
 * each authenticated HTTP request to its token's bucket and to its workspace's bucket, all or
 * nothing, and refuses it with 429 and `Retry-After` when either cannot pay. A refused request
 * runs nothing. Requests without a principal (`@Public()` routes, the panel) are not charged
 * here; a tool's handler running in-process (context type `mcp`) belongs to an HTTP request that
 * already paid.
 *
 * The workspace is the one the request acts in, resolved as cheaply as the identity module can:
 * the workspace guard's answer for a `@WorkspaceScoped()` REST route, else the token's own
 * workspace, a `workspace_id` tool argument, `X-Workspace-Id` or `?workspace_id=`, or the
 * caller's only membership (`WorkspaceResolver`). A request naming no workspace, or one the caller
 * is not a member of, draws from its token's bucket only (such a request acts in no workspace, or
 * is refused by the workspace check anyway).
 */
let RateLimitGuard = class RateLimitGuard {
    config;
    store;
    costs;
    resolver;
    constructor(config, store, costs, resolver) {
        this.config = config;
        this.store = store;
        this.costs = costs;
        this.resolver = resolver;
    }
    async canActivate(context) {
        if (!this.config.enabled || context.getType() !== 'http')
            return true;
        const req = context.switchToHttp().getRequest();
        const principal = principalOf(req);
        if (!principal || req[CHARGED])
            return true;
        req[CHARGED] = true;
        const { cost, what } = this.costs.costOf(context, req);
        if (cost <= 0)
            return true;
        const workspace = this.workspaceOf(req, principal);
        const { keyPrefix, periodMs, tokenLimit, workspaceLimit } = this.config;
        const buckets = [{ key: `${keyPrefix}:token:${principal.tokenId}`, limit: tokenLimit, periodMs }];
        if (workspace)
            buckets.push({ key: `${keyPrefix}:workspace:${workspace.id}`, limit: workspaceLimit, periodMs });
        const decision = await this.store.consume(buckets, cost);
        if (decision.allowed)
            return true;
        const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        const refusal = decision.bucket === 0 ? tokenRefusal(tokenLimit, cost, what, retryAfterSeconds) : workspaceRefusal(workspace.slug, workspaceLimit, cost, what, retryAfterSeconds);
        if (req[MCP_BODY_READ])
            throw rateLimitProtocolError(refusal);
        context.switchToHttp().getResponse().setHeader('Retry-After', String(retryAfterSeconds));
        throw new RateLimitExceededException(refusal);
    }
    workspaceOf(req, principal) {
        const resolved = requestWorkspace(req);
        if (resolved)
            return resolved;
        try {
            const membership = this.resolver.resolve(req, principal, workspaceArgument(req));
            return { id: membership.workspaceId, slug: membership.slug };
        }
        catch {
            return undefined;
        }
    }
};
RateLimitGuard = __decorate([
    Injectable(),
    __param(0, Inject(RATE_LIMIT_CONFIG)),
    __param(1, Inject(RATE_LIMIT_STORE)),
    __metadata("design:paramtypes", [Object, Object, RateLimitCostPolicy,
        WorkspaceResolver])
], RateLimitGuard);
export { RateLimitGuard };
/** `workspace_id` as the workspace guard will read it: a tool argument over MCP, the JSON body over REST. */
function workspaceArgument(req) {
    const body = req.body;
    return req[MCP_BODY_READ] ? body?.params?.arguments?.workspace_id : body?.workspace_id;
}
function tokenRefusal(limit, cost, what, retryAfterSeconds) {
    return {
        message: `Rate limit exceeded for this token: ${limit} units per minute (${what} costs ${cost}); retry after ${retryAfterSeconds} s`,
        retryAfterSeconds,
        data: { limit: 'token', unitsPerMinute: limit, cost, retryAfterSeconds },
    };
}
function workspaceRefusal(slug, limit, cost, what, retryAfterSeconds) {
    return {
        message: `Rate limit exceeded for workspace "${slug}": ${limit} units per minute shared by all its tokens ` +
            `(${what} costs ${cost}); retry after ${retryAfterSeconds} s`,
        retryAfterSeconds,
        data: { limit: 'workspace', workspace: slug, unitsPerMinute: limit, cost, retryAfterSeconds },
    };
}
//# sourceMappingURL=rate-limit.guard.js.map