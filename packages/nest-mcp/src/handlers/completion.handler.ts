import type { CompleteResult } from '@modelcontextprotocol/server';
import { Injectable } from '@nestjs/common';
import { completionKey, McpRegistry } from '../registry/mcp.registry.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { quotedUri, resourceUriParam } from '../protocol/resource-uri.js';
import { CapabilityAccess } from '../access/capability-access.js';

const MAX_VALUES = 100;

/** What an `@McpCompletion` method receives as its input. */
export interface McpCompletionRequest {
  argument: string;
  value: string;
  /** Values already chosen for the other arguments (`context.arguments`). */
  arguments: Record<string, string>;
}

/** `completion/complete` for prompt arguments and URI-template variables (docs/contract.md §5). */
@Injectable()
export class CompletionHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    private readonly invocations: InvocationBuilder,
  ) {}

  async complete(params: Record<string, unknown>, context: McpRequestContext): Promise<CompleteResult> {
    const { ref, argument } = params;
    if (!isPlainObject(ref) || !isPlainObject(argument) || typeof argument.name !== 'string') {
      throw McpProtocolError.invalidParams('Invalid params: "ref" and "argument.name" are required');
    }
    const value = typeof argument.value === 'string' ? argument.value : '';
    const target = await this.resolveTarget(ref, context);
    const entry = this.registry.completion(completionKey(target, argument.name));
    if (!entry) return { completion: { values: [], total: 0, hasMore: false } };

    const contextArguments =
      isPlainObject(params.context) && isPlainObject(params.context.arguments) ? (params.context.arguments as Record<string, string>) : {};
    const input: McpCompletionRequest = { argument: argument.name, value, arguments: contextArguments };
    const output = await entry.handler(await this.invocations.build({ kind: 'completion', name: target.name }, {}, context, input));
    const candidates = Array.isArray(output) ? output.map(String) : [];
    const prefix = value.toLowerCase();
    const matching = [...new Set(candidates)].filter((c) => c.toLowerCase().startsWith(prefix));
    return {
      completion: { values: matching.slice(0, MAX_VALUES), total: matching.length, hasMore: matching.length > MAX_VALUES },
    };
  }

  /** The prompt or template a completion refers to; it must exist and be visible to the caller. */
  private async resolveTarget(
    ref: Record<string, unknown>,
    context: McpRequestContext,
  ): Promise<{ type: 'prompt' | 'template'; name: string }> {
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = this.registry.prompt(ref.name);
      if (!prompt) throw McpProtocolError.invalidParams(`Unknown prompt: ${ref.name}`);
      await this.access.assert('prompt', prompt, context);
      return { type: 'prompt', name: ref.name };
    }
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const uri = resourceUriParam(ref.uri, 'ref.uri');
      const template = this.registry.templateByUri(uri);
      if (!template) throw McpProtocolError.invalidParams(`Unknown resource template: ${quotedUri(uri)}`);
      await this.access.assert('resource', template, context);
      return { type: 'template', name: ref.uri };
    }
    throw McpProtocolError.invalidParams('Invalid params: "ref" must be {type:"ref/prompt",name} or {type:"ref/resource",uri}');
  }
}
