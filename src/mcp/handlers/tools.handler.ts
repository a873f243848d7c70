import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../discovery/mcp.registry.js';
import type { ToolEntry } from '../discovery/mcp-registry.types.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { McpRequestContext } from '../mcp-invocation.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { validateArguments, type ArgumentValidation } from '../schema/dto-argument.validator.js';
import { paginate } from '../server/list-pagination.js';
import { ToolReply } from '../server/tool-reply.js';
import type { ToolEnvelope, ToolError, ToolSafety } from '../server/tool-result.envelope.js';
import { CapabilityAccess } from './capability-access.js';
import { nextQuestionOf, toolErrorsFromException } from './tool-error.mapper.js';

/** `tools/list` and `tools/call` (SPEC §3). */
@Injectable()
export class ToolsHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  list(params: Record<string, unknown>, context: McpRequestContext): ListToolsResult {
    const visible = this.access.visible('tool', this.registry.tools, context);
    const { page, nextCursor } = paginate(visible, params.cursor, this.options.pageSize);
    return { tools: page.map((entry) => entry.definition), ...(nextCursor ? { nextCursor } : {}) };
  }

  async call(params: Record<string, unknown>, context: McpRequestContext): Promise<CallToolResult> {
    const name = params.name;
    if (typeof name !== 'string') throw McpProtocolError.invalidParams('Invalid params: "name" (the tool to call) is required');
    const entry = this.registry.tool(name);
    if (!entry) throw McpProtocolError.invalidParams(`Unknown tool: ${name}. Call tools/list to see the tools you can use.`);
    this.access.assert('tool', entry, context);

    const started = performance.now();
    const finish = (partial: Pick<ToolEnvelope, 'ok' | 'status' | 'errors'> & { data?: unknown; nextQuestion?: string }) =>
      this.result(entry, { ...partial, toolName: name, safety: safetyOf(entry), durationMs: Math.round(performance.now() - started) });

    if (entry.annotations.destructiveHint && this.options.destructiveTools === 'refuse') {
      // Nothing destructive runs without a person's yes (SPEC §4); without a way to ask, it never runs.
      return finish({
        ok: false,
        status: 'failed',
        errors: [
          {
            code: 'confirmation_required',
            message:
              `${name} is destructive and needs a person's confirmation, which this server cannot collect yet. ` +
              'Nothing was done. Tell the user to do it in the billing application.',
            retryable: false,
          },
        ],
      });
    }

    let input: unknown = undefined;
    const validation = entry.input
      ? await validateArguments(entry.input, params.arguments ?? {}, { forbidUnknown: this.options.forbidUnknownArguments })
      : this.checkNoArguments(params.arguments);
    if (validation) {
      if (!validation.ok) {
        const errors = validation.violations.map(
          (v): ToolError => ({
            code: 'invalid_argument',
            field: v.field || undefined,
            message: `${v.message}. Correct ${v.field ? 'this argument' : 'the arguments'} and call ${name} again.`,
            retryable: false,
          }),
        );
        return finish({ ok: false, status: 'failed', errors });
      }
      input = validation.value;
    }

    let output: unknown;
    try {
      output = await entry.handler({ ...context, kind: 'tool', name, input });
    } catch (exception) {
      const errors = toolErrorsFromException(exception);
      if (!errors) throw exception;
      // A handler shared with REST cannot return a ToolReply; an exception carrying `nextQuestion` says the same.
      const nextQuestion = nextQuestionOf(exception);
      return finish({ ok: false, status: nextQuestion ? 'needs_more_info' : 'failed', errors, ...(nextQuestion ? { nextQuestion } : {}) });
    }
    if (isCallToolResult(output)) return output;
    if (output instanceof ToolReply) {
      const { ok, status, data, errors, nextQuestion } = output;
      return finish({ ok, status, data, errors, ...(nextQuestion ? { nextQuestion } : {}) });
    }
    return finish({ ok: true, status: 'success', data: output, errors: [] });
  }

  /** A tool without an input DTO publishes an empty closed schema: hold it to that. */
  private checkNoArguments(args: unknown): ArgumentValidation<never> | undefined {
    if (args === undefined || args === null) return undefined;
    if (typeof args !== 'object' || Array.isArray(args)) {
      return { ok: false, violations: [{ field: '', message: 'arguments must be a JSON object' }] };
    }
    const extra = Object.keys(args);
    if (!extra.length || !this.options.forbidUnknownArguments) return undefined;
    return { ok: false, violations: extra.map((field) => ({ field, message: `\`${field}\` is not an accepted argument; this tool takes none` })) };
  }

  private result(entry: ToolEntry, envelope: ToolEnvelope): CallToolResult {
    if (envelope.data === undefined) delete envelope.data;
    return {
      content: [{ type: 'text', text: JSON.stringify(envelope) }],
      ...(entry.structured ? { structuredContent: envelope as unknown as Record<string, unknown> } : {}),
      ...(envelope.ok ? {} : { isError: true }),
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
