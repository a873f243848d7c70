import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpRegistry } from '@nest-mcp/core/extensions';
import { WORKSPACE_SCOPED } from './workspace-scoped.decorator.js';

/**
 * A destructive tool outside `@WorkspaceScoped()` could only fail at its first call: its
 * confirmation (an approval link, an audit row) is recorded in a workspace, and nothing would say
 * which; the caller would be told to pass a `workspace_id` its input does not take. It fails the
 * boot instead.
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
      return [];
    });
    if (problems.length) throw new Error(problems.join('\n'));
  }
}
