import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpRegistry } from '../mcp/index.js';
import { WORKSPACE_SCOPED } from './workspace-scoped.decorator.js';

/**
 * Tools that could only fail at their first call fail the boot instead:
 * - a destructive tool outside `@WorkspaceScoped()`: its confirmation (an approval link, an
 *   audit row) is recorded in a workspace, and nothing would say which;
 * - a `@WorkspaceScoped()` tool whose input has no `workspace_id`: a caller in several
 *   workspaces is told to pass one and then refused it, and a model would loop.
 */
@Injectable()
export class WorkspaceToolsCheck implements OnApplicationBootstrap {
  constructor(
    private readonly registry: McpRegistry,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const problems = this.registry.tools.flatMap((tool) => {
      const scoped = this.reflector.getAllAndOverride<boolean>(WORKSPACE_SCOPED, [tool.origin.method, tool.origin.class]);
      if (tool.annotations.destructiveHint && !scoped) {
        return [
          `${tool.source}: the destructive tool "${tool.name}" acts in no workspace, so its confirmation could not be recorded. ` +
            'Add @WorkspaceScoped() to the method or its class, and extend WorkspaceScopedDto in its input',
        ];
      }
      if (scoped && !Object.hasOwn(tool.definition.inputSchema.properties ?? {}, 'workspace_id')) {
        return [
          `${tool.source}: "${tool.name}" is @WorkspaceScoped() but its input has no workspace_id, so a caller in several ` +
            'workspaces could not name one. Make its input DTO extend WorkspaceScopedDto (or declare an optional workspace_id)',
        ];
      }
      return [];
    });
    if (problems.length) throw new Error(problems.join('\n'));
  }
}
