import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, mergeMap, of, type Observable } from 'rxjs';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { McpExecutionContext } from '../mcp-execution-context.js';
import type { McpInvocation } from '../mcp-invocation.js';
import type { McpToolOptions } from '../decorators/mcp-decorator.options.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { ToolReply } from '../server/tool-reply.js';
import { TaskAccepted } from '../tasks/mcp-tasks.service.js';
import { ClaimedCalls } from './claimed-calls.js';
import { MCP_IDEMPOTENCY_STORE, type IdempotentCall, type McpIdempotencyStore } from '../contracts/idempotency-store.js';

/**
 * Idempotency keys of tool calls, claimed as an interceptor so that it runs after every guard
 * (authentication, workspace, scopes, rate limit): a caller the tool would refuse gets that
 * refusal, never a stored answer nor a hint that the key exists, and a replay runs in the
 * workspace the guards resolved (its audit row carries it). Placed before the confirmation
 * interceptor, so it is the outer one: a call that ends pending confirmation or asking a question
 * frees its key, a confirmed call that completed is the answer a repeat replays.
 *
 * The claim happens here; the tools handler, which renders the final answer, saves it or frees the
 * key (`ClaimedCalls`). Calls without a key, read-only tools and REST requests pass straight through.
 */
@Injectable()
export class McpIdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_IDEMPOTENCY_STORE) private readonly store: McpIdempotencyStore,
  ) {}

  /** Whether a tool with these annotations can carry a key at all (decided once, at bootstrap). */
  appliesTo(tool: Pick<McpToolOptions, 'annotations'>): boolean {
    return !tool.annotations?.readOnlyHint;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const invocation = McpExecutionContext.invocation(context);
    const call = invocation && this.idempotentCall(invocation);
    if (!call) return next.handle();
    return from(this.store.claim(call)).pipe(
      mergeMap((claim) => {
        if (claim.kind === 'replay') return of(replayOf(claim.result));
        if (claim.kind === 'mismatch') return of(this.reused(call.tool));
        ClaimedCalls.remember(call.invocation, call);
        return next.handle();
      }),
    );
  }

  /** The call's idempotency key, when the tool has side effects and the key argument was given. */
  private idempotentCall(invocation: McpInvocation): IdempotentCall | undefined {
    // A task's run: its key was claimed when the task was accepted, and the task is that key's answer.
    if (invocation.kind !== 'tool' || invocation.taskRun) return undefined;
    const key = invocation.arguments?.[this.options.idempotencyKeyArgument];
    if (typeof key !== 'string' || !key) return undefined;
    if (this.registry.tool(invocation.name)?.annotations.readOnlyHint) return undefined;
    return { tool: invocation.name, key, argumentsHash: invocation.argumentsHash!, invocation };
  }

  private reused(tool: string): ToolReply {
    const argument = this.options.idempotencyKeyArgument;
    return ToolReply.failed([
      {
        code: 'idempotency_key_reused',
        field: argument,
        message:
          `This ${argument} was already used for a ${tool} call with different arguments. ` +
          'Use a new key for a new operation, or repeat the first call exactly to get its answer.',
        retryable: false,
      },
    ]);
  }
}

/**
 * A stored answer as the tools handler takes it back. A task's `CreateTaskResult` (the first call
 * was accepted as a task) is that task's answer again, not data to wrap in an envelope.
 */
function replayOf(result: unknown): unknown {
  return (result as { resultType?: unknown } | null)?.resultType === 'task' ? new TaskAccepted(result as Record<string, unknown>) : result;
}
