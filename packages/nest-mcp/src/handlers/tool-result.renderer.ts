import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { McpCallOutcome } from '../contracts/call-hook.js';
import type { ToolEntry } from '../invocation/capability-entries.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { asInputRequired, assertAnswerable } from '../multi-round/input-required.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import { ToolReply } from '../tool-results/tool-reply.js';
import { withResourceLinks } from '../tool-results/resource-links.js';
import { envelopeResult, safetyOf, type ToolEnvelope, type ToolError } from '../tool-results/tool-result.envelope.js';
import { JsonConversionError, toJsonValue } from '../tool-results/json-value.js';
import { notSerializableLog, resultNotSerializable, resultTooLarge, tooLargeLog } from '../tool-results/unsendable-result.js';
import { TaskAccepted } from '../tasks/mcp-tasks.service.js';
import { nextQuestionOf, toolErrorsFromException } from './tool-error.mapper.js';

type EnvelopeFields = Pick<ToolEnvelope, 'ok' | 'status' | 'errors'> & Partial<Pick<ToolEnvelope, 'data' | 'nextQuestion' | 'approval'>>;

/** A tool call being answered: its invocation, whose `tool` and `startedAt` (the envelope's `durationMs`) the call resolved. */
export type ToolRun = McpInvocation & { tool: ToolEntry };

/** A tool call answered before its pipeline ran (no invocation yet): the call's tool and start. */
export type ToolCallStart = Pick<ToolRun, 'tool' | 'startedAt'>;

/**
 * A `tools/call` answer, rendered: the result exactly as the client gets it, and what it is. Once
 * rendered it goes out untouched (the idempotency interceptor renders the calls it keeps answers
 * for, the tools handler the others).
 */
export class ToolAnswer {
  constructor(
    readonly result: CallToolResult | InputRequiredResult,
    readonly outcome: McpCallOutcome,
  ) {}

  /** A final, successful answer: what an idempotency key keeps. Anything else leaves the key free. */
  get final(): boolean {
    return this.outcome.status === 'success' || this.outcome.status === 'queued';
  }
}

/**
 * Turns what a tool's pipeline produced (data, a `ToolReply`, a `CallToolResult`, a task's
 * acceptance, an `input_required` result, or an exception) into its `ToolAnswer`: the JSON envelope
 * (docs/contract.md §3.3), serialized here and nowhere else, and the call's typed outcome, so that
 * nothing downstream (the idempotency interceptor, the call hook, a task's run) parses it back.
 */
@Injectable()
export class ToolResultRenderer {
  private readonly logger = new Logger('McpTools');
  /** The app's own fields of an error entry (McpModuleOptions.toolErrorFields). */
  private readonly errorFields: string[];
  private readonly maxResultBytes: number;

  constructor(
    private readonly invocations: InvocationBuilder,
    @Inject(MCP_OPTIONS) options: ResolvedMcpOptions,
  ) {
    this.errorFields = Object.keys(options.toolErrorFields);
    this.maxResultBytes = options.maxResultBytes;
  }

  /** What the pipeline returned, rendered. */
  answer(output: unknown, run: ToolRun): ToolAnswer {
    if (output instanceof TaskAccepted) {
      // Accepted as a task: its `CreateTaskResult` as it is; as a queued job (or refused), its envelope.
      const { reply, taskId } = output;
      const answer = reply instanceof ToolReply ? this.answer(reply, run) : new ToolAnswer(reply as CallToolResult, outcomeOf(reply));
      return taskId ? new ToolAnswer(answer.result, { ...answer.outcome, taskId }) : answer;
    }
    const inputRequired = asInputRequired(output);
    if (inputRequired) return new ToolAnswer(assertAnswerable(inputRequired, run), INPUT_REQUIRED);
    if (isCallToolResult(output)) return this.handlerResult(output, run);
    if (output instanceof ToolReply) {
      const { ok, status, data, errors, nextQuestion, approval, resourceLinks, meta } = output;
      const enveloped = this.envelope(run, {
        ok,
        status,
        data,
        errors,
        ...(nextQuestion ? { nextQuestion } : {}),
        ...(approval ? { approval } : {}),
      });
      // The reply's `_meta` (a confirmation view's approval), beside the envelope, never inside it.
      const answer =
        meta && !enveloped.outcome.isError
          ? new ToolAnswer({ ...enveloped.result, _meta: toJsonValue(meta) as Record<string, unknown> }, enveloped.outcome)
          : enveloped;
      // A result refused as unsendable goes out alone: nothing of the reply, its links included.
      if (!resourceLinks.length || answer.outcome.isError) return answer;
      // After the envelope, which stays `content[0]` (where clients, replays and job views read it).
      return new ToolAnswer(withResourceLinks(answer.result as CallToolResult, resourceLinks, run.protocolVersion), answer.outcome);
    }
    return this.envelope(run, { ok: true, status: 'success', data: output, errors: [] });
  }

  /**
   * What the pipeline threw: a question the handler put through `invocation.elicit/sample/listRoots`
   * (2026 era), or a 4xx the caller can act on (a tool error). Anything else is thrown again: it
   * becomes a JSON-RPC error.
   */
  async failure(exception: unknown, run: ToolRun): Promise<ToolAnswer> {
    const asked = await this.invocations.asked(exception, run);
    if (asked) return new ToolAnswer(assertAnswerable(asked, run), INPUT_REQUIRED);
    const errors = toolErrorsFromException(exception, this.errorFields)?.map((error) => withCorrectionHint(error, run.tool.name));
    if (!errors) throw exception;
    // A handler shared with REST cannot return a ToolReply; an exception carrying `nextQuestion` says the same.
    const nextQuestion = nextQuestionOf(exception);
    return this.envelope(run, {
      ok: false,
      status: nextQuestion ? 'needs_more_info' : 'failed',
      errors,
      ...(nextQuestion ? { nextQuestion } : {}),
    });
  }

  /**
   * A call that did not run, as a failed envelope: arguments the layer's validation refused, or a
   * refusal before its pipeline (the access policy's or a guard's plain permission error, answered
   * by the endpoint's exception filter).
   */
  notRun(run: ToolCallStart, errors: ToolError[]): ToolAnswer {
    return this.envelope(run, { ok: false, status: 'failed', errors });
  }

  /**
   * The answer an earlier call with the same idempotency key kept, byte for byte (never rendered
   * again: its `durationMs` is the first call's). Only final, successful answers are kept, so it is
   * `queued` when it is a task's `CreateTaskResult` or any answer of a `task: 'background'` tool
   * (outside a task, its every final answer is a queued job), else `success`.
   */
  replay(stored: CallToolResult, tool: ToolEntry): ToolAnswer {
    const outcome = tool.task === 'background' ? QUEUED : outcomeOf(stored);
    return new ToolAnswer(stored, { ...outcome, replayed: true });
  }

  /**
   * A `CallToolResult` the handler built: sent as it is, its values written by the same rules as
   * an envelope's (`toJsonValue`), and held to the same limit.
   */
  private handlerResult(output: CallToolResult, run: ToolRun): ToolAnswer {
    let result: CallToolResult;
    try {
      result = toJsonValue(output) as CallToolResult;
    } catch (error) {
      return this.notSerializable(run, error);
    }
    const bytes = Buffer.byteLength(JSON.stringify(result));
    if (bytes > this.maxResultBytes) return this.tooLarge(run, bytes);
    return new ToolAnswer(result, outcomeOf(result));
  }

  /**
   * The answer carrying `fields` in the envelope. `limited`: whether the envelope must be
   * sendable (JSON-safe, within `maxResultBytes`); the layer's own refusal of one that is not
   * goes out whatever the limit, so the caller always learns why.
   */
  private envelope(run: ToolCallStart, fields: EnvelopeFields, limited = true): ToolAnswer {
    const { tool: entry, startedAt: started } = run;
    const envelope: ToolEnvelope = {
      ...fields,
      toolName: entry.name,
      safety: safetyOf(entry.annotations),
      durationMs: Math.round(performance.now() - started),
    };
    if (envelope.data === undefined) delete envelope.data;
    // pending_confirmation is not an error: the request stands, its approval is on record.
    const isError = !envelope.ok && envelope.status !== 'pending_confirmation';
    let result: CallToolResult;
    try {
      result = envelopeResult(envelope, { structured: entry.structured, isError });
    } catch (error) {
      if (!limited) throw error;
      return this.notSerializable(run, error);
    }
    if (limited) {
      // The envelope's JSON, as the text block carries it (structuredContent repeats it).
      const bytes = Buffer.byteLength((result.content[0] as { text: string }).text);
      if (bytes > this.maxResultBytes) return this.tooLarge(run, bytes);
    }
    const errorCode = envelope.errors[0]?.code;
    return new ToolAnswer(result, { status: envelope.status, isError, ...(errorCode ? { errorCode } : {}) });
  }

  /** A result JSON cannot carry: the server's bug, logged with where the value sits; the caller is told not to retry. */
  private notSerializable(run: ToolCallStart, error: unknown): ToolAnswer {
    if (!(error instanceof JsonConversionError)) throw error;
    this.logger.error(notSerializableLog(run.tool.name, error.message));
    return this.envelope(run, { ok: false, status: 'failed', errors: [resultNotSerializable(run.tool.name)] }, false);
  }

  /** A result over `maxResultBytes`: none of it is sent, the caller is told how to ask for less. */
  private tooLarge(run: ToolCallStart, bytes: number): ToolAnswer {
    const { name } = run.tool;
    this.logger.warn(tooLargeLog(name, bytes, this.maxResultBytes));
    return this.envelope(run, { ok: false, status: 'failed', errors: [resultTooLarge(name, bytes, this.maxResultBytes)] }, false);
  }
}

const INPUT_REQUIRED: McpCallOutcome = Object.freeze({ status: 'input_required', isError: false });
const QUEUED: McpCallOutcome = Object.freeze({ status: 'queued', isError: false });

/**
 * The outcome of a result the layer did not render in this call (a handler's own content blocks, a
 * task's `CreateTaskResult`, an approval's completed answer, a stored one), from its own fields: an
 * error code is only known for an envelope this call rendered.
 */
function outcomeOf(result: Record<string, unknown>): McpCallOutcome {
  if (result.isError === true) return { status: 'failed', isError: true };
  return { status: result.resultType === 'task' ? 'queued' : 'success', isError: false };
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
