import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestContext } from '../context/request-context.js';
import { McpExecutionContext } from '../mcp/index.js';
import { principalOf, setRequestWorkspace } from './request-principal.js';
import { WORKSPACE_SCOPED } from './workspace-scoped.decorator.js';
import { WorkspaceResolver } from './workspace.resolver.js';

/** Global guard for `@WorkspaceScoped()` routes and tools: resolves the workspace and checks membership. */
@Injectable()
export class WorkspaceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: WorkspaceResolver,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.reflector.getAllAndOverride<boolean>(WORKSPACE_SCOPED, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(req);
    if (!principal) return false;
    // MCP: the tool's validated arguments; REST: the JSON body.
    const args = (McpExecutionContext.invocation(context)?.input ?? req.body) as { workspace_id?: unknown } | undefined;
    const membership = this.resolver.resolve(req, principal, args?.workspace_id);
    const workspace = { id: membership.workspaceId, slug: membership.slug };
    setRequestWorkspace(req, workspace);
    const state = RequestContext.current();
    if (state) state.workspace = workspace;
    return true;
  }
}
