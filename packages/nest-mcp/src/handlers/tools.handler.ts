import type { CallToolResult, InputRequiredResult, ListToolsResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../discovery/mcp.registry.js';
import type { ToolEntry } from '../discovery/mcp-registry.types.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { ClaimedCalls } from '../idempotency/claimed-calls.js';
import { MCP_IDEMPOTENCY_STORE, type McpIdempotencyStore } from '../contracts/idempotency-store.js';
import type { McpInvocation, McpRequestContext } from '../mcp-invocation.js';
import { asInputRequired, assertAnswerable } from '../multi-round/input-required.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { validateToolArguments } from '../schema/dto-argument.validator.js';
import { RawJson } from '../server/raw-json.js';
import { ToolReply } from '../server/tool-reply.js';
import type { ToolEnvelope, ToolError, ToolSafety } from '../server/tool-result.envelope.js';
import { TaskAccepted } from '../tasks/mcp-tasks.service.js';
import { taskRouteOf, tasksCapabilityMissing } from '../tasks/task-wire.js';
import { CapabilityAccess } from './capability-access.js';
import { nextQuestionOf, toolErrorsFromException } from './tool-error.mapper.js';

type EnvelopeFields = Pick<ToolEnvelope, 'ok' | 'status' | 'errors'> & Partial<Pick<ToolEnvelope, 'data' | 'nextQuestion' | 'approval'>>;

/** `tools/list` and `tools/call` (docs/contract.md §3). */
@Injectable()
export class ToolsHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    private readonly invocations: InvocationBuilder,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_IDEMPOTENCY_STORE) private readonly idempotency: McpIdempotencyStore,
  ) {}

  /** The app's own fields of an error entry (McpModuleOptions.toolErrorFields). */
  private get errorFields(): string[] {
    return Object.keys(this.options.toolErrorFields);
  }

  /** `tools` is the page's definitions as serialized at bootstrap: no per-request serialization of schemas. */
  list(params: Record<string, unknown>, context: McpRequestContext): Omit<ListToolsResult, 'tools'> & { tools: RawJson } {
    const { page, nextCursor } = this.access.page('tool', this.registry.tools, params.cursor, context);
    return { tools: RawJson.array(page.map((entry) => entry.encodedDefinition)), ...(nextCursor ? { nextCursor } : {}) };
  }

  async call(params: Record<string, unknown>, context: McpRequestContext): Promise<CallToolResult | InputRequiredResult> {
    const entry = this.access.named('tool', params.name, (name) => this.registry.tool(name), context);
    const name = entry.name;
    // A tool that only runs as a task cannot answer a client that cannot follow one (SEP-2663).
    if (!context.taskRun && taskRouteOf(entry.task, context.clientCapabilities) === 'refused') {
      throw tasksCapabilityMissing(`The tool ${name}`, context.era);
    }

    const started = performance.now();
    const finish = (partial: EnvelopeFields) =>
      this.result(entry, { ...partial, toolName: name, safety: safetyOf(entry), durationMs: Math.round(performance.now() - started) });

    let input: unknown = undefined;
    const validation = await validateToolArguments(entry.input, params.arguments, { forbidUnknown: this.options.forbidUnknownArguments });
    if (validation) {
      if (!validation.ok) {
        const errors = validation.violations.map((v): ToolError => ({
          code: 'invalid_argument',
          field: v.field || undefined,
          message: `${v.message}. Correct ${v.field ? 'this argument' : 'the arguments'} and call ${name} again.`,
          retryable: false,
        }));
        return finish({ ok: false, status: 'failed', errors });
      }
      input = validation.value;
    }
    const invocation = await this.invocations.build('tool', name, params, context, input);

    const { result, final } = await this.run(entry, invocation, finish);
    // The key was claimed after the guards (McpIdempotencyInterceptor). Only a final, successful
    // answer is kept: a failure, a question or a pending approval leaves the key free.
    const claimed = ClaimedCalls.take(invocation);
    if (claimed && final) await this.idempotency.save(claimed, result as CallToolResult);
    else if (claimed) await this.idempotency.release(claimed);
    return result;
  }

  private async run(
    entry: ToolEntry,
    invocation: McpInvocation,
    finish: (partial: EnvelopeFields) => CallToolResult,
  ): Promise<{ result: CallToolResult | InputRequiredResult; final: boolean }> {
    let output: unknown;
    try {
      output = await entry.handler(invocation);
    } catch (exception) {
      // A question the handler put through invocation.elicit/sample/listRoots (2026 era): ask it.
      const asked = await this.invocations.asked(exception, invocation);
      if (asked) return { result: assertAnswerable(asked, invocation), final: false };
      const errors = toolErrorsFromException(exception, this.errorFields)?.map((error) => withCorrectionHint(error, invocation.name));
      if (!errors) throw exception;
      // A handler shared with REST cannot return a ToolReply; an exception carrying `nextQuestion` says the same.
      const nextQuestion = nextQuestionOf(exception);
      const status = nextQuestion ? 'needs_more_info' : 'failed';
      return { result: finish({ ok: false, status, errors, ...(nextQuestion ? { nextQuestion } : {}) }), final: false };
    }
    if (output instanceof TaskAccepted) {
      // Accepted as a task (or queued job): its answer, kept for the idempotency key like any final one.
      if (!(output.reply instanceof ToolReply)) return { result: output.reply as CallToolResult, final: true };
      output = output.reply;
    }
    const inputRequired = asInputRequired(output);
    if (inputRequired) return { result: assertAnswerable(inputRequired, invocation), final: false };
    if (isCallToolResult(output)) return { result: output, final: !output.isError };
    if (output instanceof ToolReply) {
      const { ok, status, data, errors, nextQuestion, approval } = output;
      const reply = finish({ ok, status, data, errors, ...(nextQuestion ? { nextQuestion } : {}), ...(approval ? { approval } : {}) });
      return { result: reply, final: ok };
    }
    return { result: finish({ ok: true, status: 'success', data: output, errors: [] }), final: true };
  }

  private result(entry: ToolEntry, envelope: ToolEnvelope): CallToolResult {
    if (envelope.data === undefined) delete envelope.data;
    return {
      content: [{ type: 'text', text: JSON.stringify(envelope) }],
      ...(entry.structured ? { structuredContent: envelope } : {}),
      // pending_confirmation is not an error: the request stands, its approval is on record.
      ...(envelope.ok || envelope.status === 'pending_confirmation' ? {} : { isError: true }),
    };
  }
}

function safetyOf(entry: ToolEntry): ToolSafety {
  const a = entry.annotations;
  if (a.destructiveHint) return 'destructive';
  if (a.readOnlyHint) return 'read_only';
  return a.openWorldHint ? 'external_send' : 'mutation';
}

/** A handler may answer a full `CallToolResult` (content blocks) instead of data for the envelope. */
function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as CallToolResult).content);
}

/**
 * An argument refused by the handler's own checks (a pipe, a 400 naming its \`field\`) gets the
 * hint the layer's validation gives: what to do next.
 */
function withCorrectionHint(error: ToolError, tool: string): ToolError {
  if (error.code !== 'invalid_argument' || !error.field || / again\.$/.test(error.message)) return error;
  return { ...error, message: `${error.message.replace(/\.?$/, '.')} Correct this argument and call ${tool} again.` };
}
