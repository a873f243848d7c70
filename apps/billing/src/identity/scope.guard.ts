import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { MCP_SCOPES_METADATA, McpExecutionContext } from '@nest-mcp/core';
import { principalOf } from './request-principal.js';
import { ScopePolicy } from './scope.policy.js';

/** Global guard: `@RequiredScopes()` on a route (or its controller), checked by the scope policy. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly policy: ScopePolicy,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<string[]>(MCP_SCOPES_METADATA, [context.getHandler(), context.getClass()]);
    if (!required?.length) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(req);
    if (!principal) return false;
    if (this.alreadyDecided(context, principal.workspaceId)) return true;
    this.policy.assert(principal, required, req);
    return true;
  }

  /**
   * Over MCP the layer asked this same policy about the tool, resource or prompt before the call,
   * with the same scopes (the explorer makes a capability's scopes its route's). For a token bound
   * to one workspace the answer cannot differ here, so it is not asked twice. A caller with several
   * workspaces is asked again: its role counts in the workspace the call resolved to, known only now.
   * A completion handler has scopes of its own: always checked here.
   */
  private alreadyDecided(context: ExecutionContext, boundWorkspace: string | undefined): boolean {
    const invocation = McpExecutionContext.invocation(context);
    return !!invocation && invocation.kind !== 'completion' && boundWorkspace !== undefined;
  }
}
