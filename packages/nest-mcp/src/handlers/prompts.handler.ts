import type { GetPromptResult, InputRequiredResult, ListPromptsResult, PromptMessage } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../registry/mcp.registry.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { asInputRequired, assertAnswerable } from '../multi-round/input-required.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { validateArguments } from '../schema/dto-argument.validator.js';
import { CapabilityAccess } from '../access/capability-access.js';

/** `prompts/list` and `prompts/get` (docs/contract.md §5). */
@Injectable()
export class PromptsHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    private readonly invocations: InvocationBuilder,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  list(params: Record<string, unknown>, context: McpRequestContext): ListPromptsResult {
    const { page, nextCursor } = this.access.page('prompt', this.registry.prompts, params.cursor, context);
    return { prompts: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
  }

  async get(params: Record<string, unknown>, context: McpRequestContext): Promise<GetPromptResult | InputRequiredResult> {
    const entry = await this.access.named(
      'prompt',
      params.name,
      typeof params.name === 'string' ? this.registry.prompt(params.name) : undefined,
      context,
    );
    const name = entry.name;

    let input: unknown = {};
    if (entry.args) {
      // Prompt arguments are not tool calls: a bad one is invalid params, there is no isError result.
      const validation = await validateArguments(entry.args, params.arguments ?? {}, {
        forbidUnknown: this.options.forbidUnknownArguments,
      });
      if (!validation.ok) {
        throw McpProtocolError.invalidParams(
          `Invalid arguments for prompt ${name}: ${validation.violations.map((v) => v.message).join('; ')}`,
          { violations: validation.violations },
        );
      }
      input = validation.value;
    }
    const invocation = await this.invocations.build({ kind: 'prompt', name }, params, context, input);
    let output: unknown;
    try {
      output = await entry.handler(invocation);
    } catch (exception) {
      const asked = await this.invocations.asked(exception, invocation);
      if (!asked) throw exception;
      output = asked;
    }
    const inputRequired = asInputRequired(output);
    if (inputRequired) return assertAnswerable(inputRequired, invocation);
    return toPromptResult(output, entry.definition.description);
  }
}

/** A prompt method may return a full result, a list of messages, or one string (a user message). */
function toPromptResult(output: unknown, description: string | undefined): GetPromptResult {
  if (typeof output === 'string') {
    return { ...(description ? { description } : {}), messages: [{ role: 'user', content: { type: 'text', text: output } }] };
  }
  if (Array.isArray(output)) return { ...(description ? { description } : {}), messages: output as PromptMessage[] };
  return output as GetPromptResult;
}
