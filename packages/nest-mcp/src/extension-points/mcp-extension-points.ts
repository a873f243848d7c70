import type { Provider, Type } from '@nestjs/common';
import { MCP_APPROVAL_LINKS } from '../contracts/approval-links.js';
import { InMemoryIdempotencyStore } from '../idempotency/in-memory-idempotency.store.js';
import { MCP_IDEMPOTENCY_STORE } from '../contracts/idempotency-store.js';
import { InMemoryRequestStateStore, MCP_REQUEST_STATE_STORE } from '../contracts/request-state-store.js';
import { InMemoryClientInfoStore, MCP_CLIENT_INFO_STORE } from '../contracts/client-info-store.js';
import { AllowAllAccessPolicy, MCP_ACCESS_POLICY } from '../contracts/access-policy.js';
import { MCP_CALL_HOOK, PassThroughCallHook } from '../contracts/call-hook.js';
import { InMemoryEventStore } from '../streams/in-process/in-memory-event.store.js';
import { InMemorySessionStore } from '../streams/in-process/in-memory-session.store.js';
import { InProcessMessageBus } from '../streams/in-process/in-process-message.bus.js';
import { MCP_EVENT_STORE, MCP_MESSAGE_BUS, MCP_SESSION_STORE } from '../contracts/stream-backends.js';
import { MCP_TASK_STORE } from '../contracts/task-store.js';
import { MCP_TASK_CALLERS, MCP_TASK_QUEUE } from '../contracts/task-queue.js';
import { InMemoryTaskStore } from '../tasks/in-process/in-memory-task.store.js';
import { InProcessTaskQueue } from '../tasks/in-process/in-process-task.queue.js';
import { InMemoryTaskCallers } from '../tasks/in-process/in-memory-task.callers.js';
import type { McpExtensionOptions, McpExtensionPointName } from './mcp-extension.types.js';

interface ExtensionPoint {
  token: symbol;
  /** The layer's implementation when the application gives none; absent: the capability is off. */
  fallback?: Type<unknown>;
  /** What the fallback means, said at boot. */
  fallbackNote: string;
}

/**
 * Every extension point of the layer: its option, its token and its default. A new one is one
 * entry here and one field in `McpExtensionOptions`; the module definition, the boot report and
 * the defaults follow from this table.
 */
export const MCP_EXTENSION_POINTS: Record<McpExtensionPointName, ExtensionPoint> = {
  accessPolicy: { token: MCP_ACCESS_POLICY, fallback: AllowAllAccessPolicy, fallbackNote: 'every caller may see and run everything' },
  callHook: { token: MCP_CALL_HOOK, fallback: PassThroughCallHook, fallbackNote: 'no transaction, no audit' },
  idempotencyStore: { token: MCP_IDEMPOTENCY_STORE, fallback: InMemoryIdempotencyStore, fallbackNote: 'in memory, one process only' },
  requestStateStore: { token: MCP_REQUEST_STATE_STORE, fallback: InMemoryRequestStateStore, fallbackNote: 'in memory, one process only' },
  clientInfoStore: { token: MCP_CLIENT_INFO_STORE, fallback: InMemoryClientInfoStore, fallbackNote: 'in memory, one process only' },
  approvalLinks: { token: MCP_APPROVAL_LINKS, fallbackNote: 'none: destructive tools are confirmed in the chat or refused' },
  sessionStore: { token: MCP_SESSION_STORE, fallback: InMemorySessionStore, fallbackNote: 'in memory, one replica only (stream mode)' },
  eventStore: { token: MCP_EVENT_STORE, fallback: InMemoryEventStore, fallbackNote: 'in memory, one replica only (stream mode)' },
  messageBus: { token: MCP_MESSAGE_BUS, fallback: InProcessMessageBus, fallbackNote: 'in-process, one replica only (stream mode)' },
  taskStore: { token: MCP_TASK_STORE, fallback: InMemoryTaskStore, fallbackNote: 'in memory, one process only (tasks)' },
  taskQueue: { token: MCP_TASK_QUEUE, fallback: InProcessTaskQueue, fallbackNote: 'in this process, lost with it (tasks)' },
  taskCallers: { token: MCP_TASK_CALLERS, fallback: InMemoryTaskCallers, fallbackNote: 'the creating request, kept in memory (tasks)' },
};

export const MCP_EXTENSION_POINT_NAMES = Object.keys(MCP_EXTENSION_POINTS) as McpExtensionPointName[];

/** The providers of `McpModule` for its extension points: the application's, else the defaults. */
export function extensionPointProviders(options: McpExtensionOptions): Provider[] {
  return MCP_EXTENSION_POINT_NAMES.flatMap((name): Provider[] => {
    const { token, fallback } = MCP_EXTENSION_POINTS[name];
    const given = options[name];
    if (given) return [{ ...given, provide: token } as Provider];
    return fallback ? [{ provide: token, useClass: fallback }] : [];
  });
}

/** Which option names were given by the application (the rest are defaults). */
export function givenExtensionPoints(options: McpExtensionOptions): McpExtensionPointName[] {
  return MCP_EXTENSION_POINT_NAMES.filter((name) => options[name] !== undefined);
}
