import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestContext } from '../context/request-context.js';
import { McpExecutionContext, type McpInvocation } from '@nest-mcp/core';
import { principalOf, setRequestWorkspace } from './request-principal.js';
import { WORKSPACE_SCOPED } from './workspace-scoped.decorator.js';
import { WorkspaceResolver } from './workspace.resolver.js';

/**
 * Global guard for `@WorkspaceScoped()` routes and tools: resolves the workspace and checks
 * membership. A capability guard: over MCP it decides on the capability's in-process call, where
 * the validated arguments exist (the MCP endpoint's own route is not scoped and passes).
 */
@Injectable()
export class WorkspaceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: WorkspaceResolver,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.reflector.getAllAndOverride<boolean>(WORKSPACE_SCOPED, [context.getHandler(), context.getClass()])) {
      // Nothing to resolve; code that reads the workspace anyway is told which method to scope (RequestContext.require).
      const state = RequestContext.current();
      if (state) state.unscopedHandler = `${context.getClass().name}.${context.getHandler().name}`;
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(req);
    if (!principal) return false;
    // MCP: the tool's validated arguments; REST: the JSON body.
    const invocation = McpExecutionContext.invocation(context);
    const args = (invocation?.input ?? req.body) as { workspace_id?: unknown } | undefined;
    const membership = this.resolver.resolve(req, principal, args?.workspace_id, !invocation || this.takesWorkspaceArgument(invocation));
    const workspace = { id: membership.workspaceId, slug: membership.slug };
    setRequestWorkspace(req, workspace);
    const state = RequestContext.current();
    if (state) state.workspace = workspace;
    return true;
  }

  /** Whether the caller could have named the workspace in the call: a tool's argument, a resource template's variable. */
  private takesWorkspaceArgument(invocation: McpInvocation): boolean {
    // The call's own entries, resolved once by the layer: nothing is looked up by name here.
    if (invocation.kind === 'resource') return invocation.template?.template.variableNames.includes('workspace_id') ?? false;
    const tool = invocation.tool;
    return !tool || Object.hasOwn(tool.definition.inputSchema.properties ?? {}, 'workspace_id');
  }
}
