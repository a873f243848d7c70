import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, type Observable } from 'rxjs';
import type { McpToolOptions } from '../options/mcp-decorator.options.js';
import { McpExecutionContext } from '../invocation/mcp-execution-context.js';
import { McpTasks } from './mcp-tasks.service.js';
import { taskRouteOf } from './task-wire.js';

/**
 * The task boundary of a tool declared with `task` (docs/tasks.md), the last of the layer's
 * interceptors. Everything before it — validation, the guards (scopes, workspace, rate limit), the
 * idempotency key, the confirmation of a destructive tool — runs in the request, so a task is only
 * created for a call that would run. Here the call becomes a task (its run is queued) instead of
 * going on; on the worker the same pipeline runs again and passes through to the handler.
 * Over REST (not an MCP invocation) it does nothing.
 */
@Injectable()
export class McpTaskInterceptor implements NestInterceptor {
  constructor(private readonly tasks: McpTasks) {}

  appliesTo(tool: Pick<McpToolOptions, 'task'>): boolean {
    return tool.task !== undefined;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const invocation = McpExecutionContext.invocation(context);
    if (!invocation || invocation.kind !== 'tool' || invocation.taskRun) return next.handle();
    const route = taskRouteOf(invocation.tool?.task, invocation.clientCapabilities);
    // `inline`: the call runs in its request. (`refused` was answered by the tools handler, before the guards.)
    if (route !== 'task' && route !== 'job') return next.handle();
    return from(this.tasks.accept(invocation, route));
  }
}
