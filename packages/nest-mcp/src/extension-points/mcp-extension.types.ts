import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency, Type } from '@nestjs/common';
import type { McpApprovalLinks } from '../contracts/approval-links.js';
import type { McpIdempotencyStore } from '../contracts/idempotency-store.js';
import type { McpRequestStateStore } from '../contracts/request-state-store.js';
import type { McpClientInfoStore } from '../contracts/client-info-store.js';
import type { McpAccessPolicy } from '../contracts/access-policy.js';
import type { McpCallHook } from '../contracts/call-hook.js';
import type { McpTaskStore } from '../contracts/task-store.js';
import type { McpTaskCallers, McpTaskQueue } from '../contracts/task-queue.js';
import type { McpEventStore, McpMessageBus, McpSessionStore } from '../contracts/stream-backends.js';

/**
 * How an application fills one extension point: a Nest provider without `provide` (the layer
 * knows the token). `useExisting` reuses a provider exported by a module listed in `imports`
 * (one instance, shared with the rest of the app); `useClass` makes the layer's own instance,
 * whose dependencies must also come from `imports`.
 */
export type McpExtension<T> =
  | { useExisting: InjectionToken<T> }
  | { useClass: Type<T> }
  | { useValue: T }
  | {
      // `never[]`: any parameter list fits (the arguments are whatever `inject` names).
      useFactory: (...args: never[]) => T | Promise<T>;
      inject?: Array<InjectionToken | OptionalFactoryDependency>;
    };

/**
 * The layer's extension points, given to `McpModule.forRoot()` / `forRootAsync()` next to the
 * other options. Each but `approvalLinks` has a default that works in one process; the boot log
 * says which implementation fills each.
 */
export interface McpExtensionOptions {
  /**
   * Modules whose exported providers the extensions below use (`useExisting`) or depend on
   * (`useClass`, `useFactory`). With `forRootAsync` these are the same `imports` as the options
   * factory's.
   */
  imports?: ModuleMetadata['imports'];
  /** What a caller may see and run. Default: everything, for everyone. */
  accessPolicy?: McpExtension<McpAccessPolicy>;
  /** Runs around every capability call (transaction, audit). Default: runs the call as is. */
  callHook?: McpExtension<McpCallHook>;
  /** First answers of tool calls that carry an idempotency key. Default: in this process's memory. */
  idempotencyStore?: McpExtension<McpIdempotencyStore>;
  /** One-time use of multi round-trip `requestState`. Default: in this process's memory. */
  requestStateStore?: McpExtension<McpRequestStateStore>;
  /**
   * Stateless mode: the client each caller named in its last handshake-era `initialize`, recalled
   * for that caller's later requests (audit, approval pages). Default: in this process's memory
   * (the last 10 000 callers).
   */
  clientInfoStore?: McpExtension<McpClientInfoStore>;
  /**
   * Approval links for destructive tools (docs/contract.md §4.3). No default: without it a destructive tool is
   * confirmed in the chat or refused, and the boot fails when a tool can only be confirmed by link.
   */
  approvalLinks?: McpExtension<McpApprovalLinks>;
  /** Stream mode: handshake-era sessions. Default: in this process's memory (one replica). */
  sessionStore?: McpExtension<McpSessionStore>;
  /** Stream mode: replayable SSE events (`Last-Event-ID`). Default: in this process's memory. */
  eventStore?: McpExtension<McpEventStore>;
  /** Stream mode: messages between replicas (client answers, resource updates). Default: in-process. */
  messageBus?: McpExtension<McpMessageBus>;
  /** Tasks (docs/tasks.md): where tasks live, shared by every replica. Default: in this process's memory. */
  taskStore?: McpExtension<McpTaskStore>;
  /** Tasks: the job queue that runs them on any replica. Default: in this process (lost with it). */
  taskQueue?: McpExtension<McpTaskQueue>;
  /**
   * Tasks: how a task acts as its caller on a worker. Required with a `taskStore` (the default keeps
   * the creating request in memory, which cannot travel to another replica).
   */
  taskCallers?: McpExtension<McpTaskCallers>;
}

/** The names of the extension points (the option keys). */
export type McpExtensionPointName = Exclude<keyof McpExtensionOptions, 'imports'>;
