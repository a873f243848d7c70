import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  acceptedContent,
  inputRequired,
  McpCtx,
  McpErrorCode,
  McpExecutionContext,
  type McpInvocation,
  McpProtocolError,
  McpTool,
  ToolReply,
} from '@nest-mcp/core';

/**
 * The tasks extension's fixtures (SEP-2663, the suite's `tasks-*` scenarios): names, arguments
 * and behaviour are the suite's. The methods are ordinary: `task` on the decorator is all that
 * makes the layer run them as tasks for a client that declared the extension.
 */
const text = (value: string) => ({ type: 'text' as const, text: value });
const NAME_QUESTION = {
  message: 'What is your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};
const confirmQuestion = (message: string) => ({
  message,
  requestedSchema: { type: 'object' as const, properties: { confirm: { type: 'boolean' as const } }, required: ['confirm'] },
});

export class GreetDto {
  @ApiProperty({ description: 'Who to greet' })
  @IsString()
  name: string;
}

export class SlowComputeDto {
  @ApiProperty({ description: 'How long the computation takes, in seconds (0: at once)' })
  @IsInt()
  @Min(0)
  @Max(600)
  seconds: number;

  @ApiPropertyOptional({ description: 'A label echoed in the result' })
  @IsOptional()
  @IsString()
  label?: string;
}

export class ConfirmDeleteDto {
  @ApiProperty({ description: 'The file to delete' })
  @IsString()
  filename: string;
}

/** Waits, unless the task is cancelled (its signal aborts): then the run fails and nothing is kept. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

/**
 * Asks the user's name before the task exists: a guard runs in the request (a multi round-trip
 * question), the handler in the task. On the task's run the handler asks the same first question
 * and finds the answer the client gave before the task was created.
 */
@Injectable()
class AskNameFirst implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const invocation = McpExecutionContext.invocation(context);
    if (invocation && !invocation.taskRun) await invocation.elicit(NAME_QUESTION);
    return true;
  }
}

@Injectable()
export class TaskFixtures {
  @McpTool({ name: 'greet', description: 'Greets someone (sync only)' })
  greet(input: GreetDto) {
    return { content: [text(`Hello, ${input.name}!`)] };
  }

  @McpTool({ name: 'slow_compute', description: 'Computes for `seconds` seconds (task-supporting)', task: 'optional' })
  async slowCompute(input: SlowComputeDto, ctx: McpInvocation) {
    await ctx.progress(0, input.seconds, 'Computing');
    await sleep(input.seconds * 1000, ctx.signal);
    return { content: [text(`Computed ${input.label ?? 'result'} in ${input.seconds} s`)] };
  }

  @McpTool({ name: 'failing_job', description: 'Always ends with a tool error after about a second', task: 'required' })
  async failingJob(@McpCtx() ctx: McpInvocation) {
    await sleep(1000, ctx.signal);
    return { isError: true, content: [text('The job failed: the simulated input was invalid')] };
  }

  @McpTool({ name: 'protocol_error_job', description: 'Fails with a protocol (JSON-RPC) error', task: 'optional' })
  async protocolErrorJob(@McpCtx() ctx: McpInvocation) {
    await sleep(200, ctx.signal);
    throw new McpProtocolError(McpErrorCode.InternalError, 'The job crashed: simulated internal failure', 200);
  }

  @McpTool({ name: 'confirm_delete', description: 'Asks for confirmation, then deletes a file', task: 'optional' })
  async confirmDelete(input: ConfirmDeleteDto, ctx: McpInvocation) {
    const answer = await ctx.elicit(confirmQuestion(`Delete ${input.filename}?`));
    if (answer.action !== 'accept' || answer.content?.confirm !== true)
      return ToolReply.failed([{ code: 'declined', message: 'Not deleted', retryable: false }]);
    return { content: [text(`Deleted ${input.filename}`)] };
  }

  @McpTool({ name: 'multi_input', description: 'Asks two questions at once', task: 'optional' })
  multiInput(@McpCtx() ctx: McpInvocation) {
    const first = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'first');
    const second = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'second');
    if (!first || !second) {
      return inputRequired({
        inputRequests: {
          first: inputRequired.elicit({ message: 'First input', requestedSchema: NAME_QUESTION.requestedSchema }),
          second: inputRequired.elicit({ message: 'Second input', requestedSchema: NAME_QUESTION.requestedSchema }),
        },
      });
    }
    return { content: [text(`Got ${String(first.name)} and ${String(second.name)}`)] };
  }

  @McpTool({ name: 'test_tool_with_task', description: 'Asks a name, then greets as a task', task: 'required' })
  @UseGuards(AskNameFirst)
  async toolWithTask(@McpCtx() ctx: McpInvocation) {
    const answer = await ctx.elicit(NAME_QUESTION);
    return { content: [text(`Hello, ${String(answer.content?.name)}! (from a task)`)] };
  }
}
