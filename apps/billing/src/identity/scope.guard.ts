import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { MCP_SCOPES_METADATA } from '@nest-mcp/core/extensions';
import { principalOf } from './request-principal.js';
import { ScopePolicy } from './scope.policy.js';

/**
 * Global guard: `@RequiredScopes()` on a route (or its controller), and the scopes of a tool,
 * resource, prompt or completion (the explorer makes a capability's scopes its route's), checked
 * by the scope policy in the workspace the call acts in (`WorkspaceGuard`, registered before it,
 * resolved it). A capability guard: over MCP it decides on the capability's in-process call; the
 * endpoint's own route has no scopes and passes.
 *
 * The MCP layer also asks the same policy before the call (`accessPolicy`): that answer is what
 * the caller may see and name, as in the lists, before any input is read; this one is whether
 * they may do it there. For a token bound to one workspace both answers agree; for a caller in
 * several, only this one knows the workspace whose role counts.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly policy: ScopePolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.getAllAndOverride<string[]>(MCP_SCOPES_METADATA, [context.getHandler(), context.getClass()]);
    if (!required?.length) return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!principalOf(req)) return false;
    await this.policy.assert(req, required);
    return true;
  }
}
