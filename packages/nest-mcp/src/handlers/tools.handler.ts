import type { ListToolsResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../registry/mcp.registry.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { InChatConfirmation, McpRequestContext } from '../invocation/mcp-invocation.js';
import type { McpCall } from '../contracts/call-hook.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { validateToolArguments } from '../schema/dto-argument.validator.js';
import { RawJson } from '../tool-results/raw-json.js';
import type { ToolError } from '../tool-results/tool-result.envelope.js';
import { taskRouteOf, tasksCapabilityMissing } from '../tasks/task-wire.js';
import { CapabilityAccess } from '../access/capability-access.js';
import { ToolAnswer, ToolResultRenderer, type ToolRun } from './tool-result.renderer.js';
import { clientSupportsApps } from '../views/apps-extension.js';

/** `tools/list` and `tools/call` (docs/contract.md §3). */
@Injectable()
export class ToolsHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    private readonly invocations: InvocationBuilder,
    private readonly renderer: ToolResultRenderer,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  /** `tools` is the page's definitions as serialized at bootstrap: no per-request serialization of schemas. */
  list(params: Record<string, unknown>, context: McpRequestContext): Omit<ListToolsResult, 'tools'> & { tools: RawJson } {
    // A tool only app views call is listed to clients that render them (docs/app-views.md).
    const tools = clientSupportsApps(context) ? this.registry.tools : this.registry.modelTools;
    const { page, nextCursor } = this.access.page('tool', tools, params.cursor, context);
    return { tools: RawJson.array(page.map((entry) => entry.encodedDefinition)), ...(nextCursor ? { nextCursor } : {}) };
  }

  /**
   * The answer with its outcome (`McpCall.outcome`). The tool is the one the call resolved
   * (`call.tool`), never looked up again. A keyed call's answer comes rendered from the idempotency
   * interceptor, which keeps it for the key, and goes out as it is.
   */
  async call(params: Record<string, unknown>, call: McpCall, confirmedInChat?: InChatConfirmation): Promise<ToolAnswer> {
    const { context, startedAt } = call;
    const tool = await this.access.named('tool', params.name, call.tool, context);
    const name = tool.name;
    // A tool that only runs as a task cannot answer a client that cannot follow one (SEP-2663).
    if (!context.taskRun && taskRouteOf(tool.task, context.clientCapabilities) === 'refused') {
      throw tasksCapabilityMissing(`The tool ${name}`, context.era);
    }

    let input: unknown = undefined;
    const validation = await validateToolArguments(tool.input, params.arguments, {
      forbidUnknown: this.options.forbidUnknownArguments,
      raw: tool.rawInputSchema,
    });
    if (validation) {
      if (!validation.ok) {
        const errors = validation.violations.map((v): ToolError => ({
          code: 'invalid_argument',
          field: v.field || undefined,
          message: `${v.message}. Correct ${v.field ? 'this argument' : 'the arguments'} and call ${name} again.`,
          retryable: false,
        }));
        return this.renderer.notRun({ tool, startedAt }, errors);
      }
      input = validation.value;
    }
    const target = { kind: 'tool' as const, name, tool, startedAt, ...(confirmedInChat ? { confirmedInChat } : {}) };
    const run = (await this.invocations.build(target, params, context, input)) as ToolRun;
    let output: unknown;
    try {
      output = await tool.handler(run);
    } catch (exception) {
      return this.renderer.failure(exception, run);
    }
    // A keyed call's answer was rendered (and kept) by the idempotency interceptor: it goes out as it is.
    return output instanceof ToolAnswer ? output : this.renderer.answer(output, run);
  }
}
