import type { CallToolResult } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ToolResultRenderer, type ToolAnswer, type ToolRun } from '../handlers/tool-result.renderer.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import { McpExecutionContext } from '../invocation/mcp-execution-context.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { McpToolOptions } from '../options/mcp-decorator.options.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { ToolReply } from '../tool-results/tool-reply.js';
import { MCP_IDEMPOTENCY_STORE, type IdempotentCall, type McpIdempotencyStore } from '../contracts/idempotency-store.js';
import { answerWithKey } from './keyed-answer.js';

/**
 * Idempotency keys of tool calls, from claim to answer, as an interceptor so that it runs after
 * every guard (authentication, workspace, scopes, rate limit): a caller the tool would refuse gets
 * that refusal, never a stored answer nor a hint that the key exists, and a replay runs in the
 * workspace the guards resolved (its audit row carries it). Placed before the confirmation
 * interceptor, so it is the outer one: a call that ends pending confirmation or asking a question
 * frees its key, a confirmed call that completed is the answer a repeat replays.
 *
 * The first call with a key claims it, runs, and its answer is rendered here (`ToolResultRenderer`,
 * as the tools handler renders any other call): a final, successful answer is kept for the key
 * exactly as the client gets it; anything else (a failure, a question, a pending approval, a
 * thrown error) frees the key. The `durationMs` of an answer rendered here counts from the start
 * of the call (`invocation.startedAt`, when the layer began serving it), as for any other call; a replay
 * carries the first call's. Calls without a key, read-only tools, a task's run and REST requests
 * pass straight through.
 */
@Injectable()
export class McpIdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('McpIdempotency');

  constructor(
    private readonly renderer: ToolResultRenderer,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_IDEMPOTENCY_STORE) private readonly store: McpIdempotencyStore,
  ) {}

  /** Whether a tool with these annotations can carry a key at all (decided once, at bootstrap). */
  appliesTo(tool: Pick<McpToolOptions, 'annotations'>): boolean {
    return !tool.annotations?.readOnlyHint;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const invocation = McpExecutionContext.invocation(context);
    const keyed = invocation && this.keyedCall(invocation);
    if (!keyed) return next.handle();
    return from(this.answer(keyed, invocation as ToolRun, next));
  }

  private answer(call: IdempotentCall, run: ToolRun, next: CallHandler): Promise<ToolAnswer> {
    return answerWithKey(this.store, call, {
      replay: (result) => this.renderer.replay(result, run.tool),
      mismatch: () => this.renderer.answer(this.reused(call.tool), run),
      run: () =>
        lastValueFrom(next.handle()).then(
          (output) => this.renderer.answer(output, run),
          (exception: unknown) => this.renderer.failure(exception, run),
        ),
      // An answer is kept as the client gets it: a task's `CreateTaskResult` too (a repeat answers that task).
      kept: (answer) => (answer.final ? (answer.result as CallToolResult) : undefined),
      // The default store keeps keys outside any transaction: only a release frees them.
      releaseOnThrow: { failed: (error) => this.logger.warn(`Could not free the key of a failed ${call.tool} call: ${error.message}`) },
    });
  }

  /** The call's idempotency key, when the tool has side effects and the key argument was given. */
  private keyedCall(invocation: McpInvocation): IdempotentCall | undefined {
    // A task's run: its key was claimed when the task was accepted, and the task is that key's answer.
    if (invocation.kind !== 'tool' || invocation.taskRun) return undefined;
    const key = invocation.arguments?.[this.options.idempotencyKeyArgument];
    if (typeof key !== 'string' || !key) return undefined;
    if (!invocation.tool || invocation.tool.annotations.readOnlyHint) return undefined;
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
