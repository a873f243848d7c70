import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../identity/principal.js';
import { principalOf, requestWorkspace } from '../identity/request-principal.js';
import { WorkspaceResolver } from '../identity/workspace.resolver.js';
import { McpRequestGuard } from '@nest-mcp/core';
import { mcpMessageOf } from '@nest-mcp/core/extensions';
import { RateLimitCostPolicy } from './rate-limit-cost.policy.js';
import { RATE_LIMIT_CONFIG, type RateLimitConfig } from './rate-limit.config.js';
import { RateLimitExceededException, rateLimitProtocolError, type RateLimitRefusal } from './rate-limit.exception.js';
import { RATE_LIMIT_STORE, type RateLimitBucket, type RateLimitStore } from './store/rate-limit.store.js';

/**
 * Global guard, registered after the identity guards (it needs the principal they set; the order
 * is in `app.guards.ts`): charges each authenticated HTTP request to its token's bucket and to its
 * workspace's bucket, all or nothing, and refuses it with 429 and `Retry-After` when either cannot
 * pay. A refused request runs nothing. Requests without a principal (`@PublicRoute()` routes, the
 * panel) are not charged here. A request guard (`@McpRequestGuard()`): an MCP request is charged
 * once, on the endpoint, before any method runs; the tool's in-process call is not charged again.
 *
 * The workspace is the one the request acts in, resolved as cheaply as the identity module can:
 * the workspace guard's answer for a `@WorkspaceScoped()` REST route, else the token's own
 * workspace, a `workspace_id` tool argument, `X-Workspace-Id` or `?workspace_id=`, or the
 * caller's only membership (`WorkspaceResolver`). A request naming no workspace, or one the caller
 * is not a member of, draws from its token's bucket only (such a request acts in no workspace, or
 * is refused by the workspace check anyway).
 */
@Injectable()
@McpRequestGuard()
export class RateLimitGuard implements CanActivate {
  constructor(
    @Inject(RATE_LIMIT_CONFIG) private readonly config: RateLimitConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly costs: RateLimitCostPolicy,
    private readonly resolver: WorkspaceResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.enabled) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(req);
    if (!principal) return true;

    const { cost, what } = this.costs.costOf(context, req);
    if (cost <= 0) return true;
    const workspace = this.workspaceOf(req, principal);
    const { keyPrefix, periodMs, tokenLimit, workspaceLimit } = this.config;
    // Per caller: a personal token, or a JWT's subject (not its jti: a fresh token is not a fresh bucket).
    const caller = principal.callerId ?? principal.tokenId;
    const buckets: RateLimitBucket[] = [{ key: `${keyPrefix}:token:${caller}`, limit: tokenLimit, periodMs }];
    if (workspace) buckets.push({ key: `${keyPrefix}:workspace:${workspace.id}`, limit: workspaceLimit, periodMs });

    const decision = await this.store.consume(buckets, cost);
    if (decision.allowed) return true;

    const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    const refusal =
      decision.bucket === 0
        ? tokenRefusal(tokenLimit, cost, what, retryAfterSeconds)
        : workspaceRefusal(workspace!.slug, workspaceLimit, cost, what, retryAfterSeconds);
    if (mcpMessageOf(req)) throw rateLimitProtocolError(refusal);
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retryAfterSeconds));
    throw new RateLimitExceededException(refusal);
  }

  private workspaceOf(req: Request, principal: Principal): { id: string; slug: string } | undefined {
    const resolved = requestWorkspace(req);
    if (resolved) return resolved;
    try {
      const membership = this.resolver.resolve(req, principal, workspaceArgument(req));
      return { id: membership.workspaceId, slug: membership.slug };
    } catch {
      return undefined;
    }
  }
}

/** `workspace_id` as the workspace guard will read it: a tool argument over MCP, the JSON body over REST. */
function workspaceArgument(req: Request): unknown {
  const mcp = mcpMessageOf(req);
  if (mcp) {
    const args = mcp.message?.params.arguments as { workspace_id?: unknown } | undefined;
    return typeof args === 'object' && args !== null ? args.workspace_id : undefined;
  }
  return (req.body as { workspace_id?: unknown } | undefined)?.workspace_id;
}

function tokenRefusal(limit: number, cost: number, what: string, retryAfterSeconds: number): RateLimitRefusal {
  return {
    message: `Rate limit exceeded for this token: ${limit} units per minute (${what} costs ${cost}); retry after ${retryAfterSeconds} s`,
    retryAfterSeconds,
    data: { limit: 'token', unitsPerMinute: limit, cost, retryAfterSeconds },
  };
}

function workspaceRefusal(slug: string, limit: number, cost: number, what: string, retryAfterSeconds: number): RateLimitRefusal {
  return {
    message:
      `Rate limit exceeded for workspace "${slug}": ${limit} units per minute shared by all its tokens ` +
      `(${what} costs ${cost}); retry after ${retryAfterSeconds} s`,
    retryAfterSeconds,
    data: { limit: 'workspace', workspace: slug, unitsPerMinute: limit, cost, retryAfterSeconds },
  };
}
