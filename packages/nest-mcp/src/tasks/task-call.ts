import type { Request } from 'express';
import type { McpCall } from '../contracts/call-hook.js';
import type { McpTask } from '../contracts/task-store.js';
import type { McpRequestContext, McpTaskRunContext } from '../invocation/mcp-invocation.js';

/**
 * The request context of a task's tool call as a worker makes it: the client as it was when the
 * task was created, acting through `request` (the caller restored by the application's task callers).
 */
export function taskRunContext(
  task: McpTask,
  request: Request,
  run: { signal?: AbortSignal; progress: McpTaskRunContext['progress'] },
): McpRequestContext {
  return {
    era: 'stateless',
    protocolVersion: task.client.protocolVersion,
    method: 'tools/call',
    requestId: `task:${task.id}`,
    clientCapabilities: task.client.capabilities,
    ...(task.client.info ? { clientInfo: task.client.info } : {}),
    meta: {},
    httpRequest: request,
    ...(run.signal ? { signal: run.signal } : {}),
    taskRun: { taskId: task.id, progress: run.progress },
  };
}

/**
 * A task's tool call as the call hook sees a run of it, for a task that ended without one
 * (`McpCallHook.taskEnded`): in the request that ended it, or, when none did (the worker found
 * its caller refused), a request with nothing in it.
 */
export function taskEndCall(task: McpTask, request?: Request): McpCall {
  return {
    context: taskRunContext(task, request ?? ({ headers: {} } as Request), { progress: async () => undefined }),
    method: 'tools/call',
    target: task.tool,
    arguments: task.arguments,
    readOnly: false,
    startedAt: performance.now(),
  };
}
