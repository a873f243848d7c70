import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { HttpStatus } from '@nestjs/common';
import type { McpTaskSupport } from '../options/mcp-decorator.options.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import type { ProtocolEra } from '../protocol/protocol-version.js';
import type { McpTask } from '../contracts/task-store.js';

/** The extension's identifier (SEP-2663): in `capabilities.extensions` of both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export const TASK_SUPPORTS: readonly McpTaskSupport[] = ['optional', 'required', 'background'];

/** Whether the client declared the tasks extension (per request in 2026-07-28; the extension exists in no other era). */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return isPlainObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/**
 * How one call of a tool is served, from its task support and what the client declared on the
 * request (docs/tasks.md): as a `task`, as a queued `job` (a client without the extension), in the
 * request (`inline`), or `refused` (-32021: a `required` tool, a client without the extension).
 */
export function taskRouteOf(support: McpTaskSupport | undefined, capabilities: ClientCapabilities): 'task' | 'job' | 'inline' | 'refused' {
  if (!support) return 'inline';
  if (declaresTasks(capabilities)) return 'task';
  return support === 'background' ? 'job' : support === 'required' ? 'refused' : 'inline';
}

/**
 * `-32021`: what the client must declare to use this (the spec's `data.requiredCapabilities`).
 * HTTP 400 in 2026-07-28 (the spec's MUST for this error over HTTP); inside a 200 in the handshake
 * era, whose clients read a JSON-RPC error only there.
 */
export function tasksCapabilityMissing(what: string, era: ProtocolEra): McpProtocolError {
  return new McpProtocolError(
    McpErrorCode.MissingRequiredClientCapability,
    `${what} needs the tasks extension: declare "${TASKS_EXTENSION}" in ` +
      '_meta["io.modelcontextprotocol/clientCapabilities"].extensions on the request.',
    era === 'stateless' ? HttpStatus.BAD_REQUEST : HttpStatus.OK,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** `-32602`, the same for an unknown, expired or another caller's task: nothing tells them apart. */
export function taskNotFound(lost?: string): McpProtocolError {
  return McpProtocolError.invalidParams(lost ?? 'Task not found: no task with this taskId exists for this caller (it may have expired)');
}

/** The `Task` fields every shape carries (integer milliseconds, ISO timestamps). */
function taskFields(task: McpTask, pollIntervalMs: number) {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt.toISOString(),
    lastUpdatedAt: task.lastUpdatedAt.toISOString(),
    ttlMs: Math.max(1, task.expiresAt.getTime() - task.createdAt.getTime()),
    pollIntervalMs,
  };
}

/** `CreateTaskResult`: flat `Result & Task`, no result, error nor input requests (they live on `tasks/get`). */
export function createTaskResult(task: McpTask, pollIntervalMs: number): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(task, pollIntervalMs) };
}

/** `tasks/get`: the `DetailedTask` for the task's status (`resultType: "complete"` is added with the era's decorations). */
export function detailedTask(task: McpTask, pollIntervalMs: number): Record<string, unknown> {
  const fields = taskFields(task, pollIntervalMs);
  switch (task.status) {
    case 'input_required':
      return { ...fields, inputRequests: task.inputRequests ?? {} };
    case 'completed':
      return { ...fields, result: task.result ?? { content: [] } };
    case 'failed':
      return { ...fields, error: task.error ?? { code: McpErrorCode.InternalError, message: 'Internal error' } };
    default:
      return fields;
  }
}
