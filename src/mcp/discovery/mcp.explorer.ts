import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/internal';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { UriTemplate, type Tool } from '@modelcontextprotocol/server';
import type {
  McpCompletionOptions,
  McpPromptMetadata,
  McpResourceMetadata,
  McpToolMetadata,
} from '../decorators/mcp-decorator.options.js';
import {
  MCP_COMPLETION_METADATA,
  MCP_OPTIONS,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_SCOPES_METADATA,
  MCP_TOOL_METADATA,
} from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { dtoToJsonSchema } from '../schema/dto-json-schema.factory.js';
import { envelopeSchema } from '../server/tool-result.envelope.js';
import { McpHandlerFactory } from './mcp-handler.factory.js';
import { completionKey, McpRegistry } from './mcp.registry.js';
import type { BoundHandler } from './mcp-registry.types.js';
import { RawJson } from '../server/raw-json.js';
import { McpConfirmationInterceptor } from '../confirmation/confirmation.interceptor.js';
import { McpIdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';

/**
 * Finds every `@McpTool`, `@McpResource`, `@McpPrompt` and `@McpCompletion` method once, at
 * bootstrap, builds its schema and bound handler, and fills the registry. Duplicate names and
 * DTOs that cannot be described fail the boot with the offending `Class.method`.
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly handlers: McpHandlerFactory,
    private readonly registry: McpRegistry,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly idempotency: McpIdempotencyInterceptor,
    private readonly confirmation: McpConfirmationInterceptor,
  ) {}

  onModuleInit(): void {
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    for (const wrapper of wrappers) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isAlias) continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        this.exploreMethod(wrapper, prototype, methodName);
      }
    }
  }

  private exploreMethod(wrapper: InstanceWrapper, prototype: Record<string, object>, methodName: string): void {
    const method = prototype[methodName];
    const tool: McpToolMetadata | undefined = Reflect.getMetadata(MCP_TOOL_METADATA, method);
    const resource: McpResourceMetadata | undefined = Reflect.getMetadata(MCP_RESOURCE_METADATA, method);
    const prompt: McpPromptMetadata | undefined = Reflect.getMetadata(MCP_PROMPT_METADATA, method);
    const completion: McpCompletionOptions | undefined = Reflect.getMetadata(MCP_COMPLETION_METADATA, method);
    if (!tool && !resource && !prompt && !completion) return;

    const source = `${prototype.constructor.name}.${methodName}`;
    if (!wrapper.isDependencyTreeStatic()) {
      throw new Error(`${source}: MCP handlers must live on singleton providers or controllers, not request-scoped ones`);
    }
    // The layer's own interceptors wrap only the tools they can act on (a method's one handler
    // serves all its kinds; they pass other kinds through): idempotency outside confirmation.
    const around = tool ? [this.idempotency, this.confirmation].filter((interceptor) => interceptor.appliesTo(tool.annotations ?? {})) : [];
    const handler = this.handlers.create(wrapper, methodName, around);
    const target = prototype.constructor as Type<unknown>;
    const declaredScopes: string[] =
      Reflect.getMetadata(MCP_SCOPES_METADATA, method) ?? Reflect.getMetadata(MCP_SCOPES_METADATA, target) ?? [];
    if (tool) this.addTool({ ...tool, scopes: tool.scopes ?? declaredScopes }, target, methodName, source, handler);
    if (resource) this.addResource({ ...resource, scopes: resource.scopes ?? declaredScopes }, source, handler);
    if (prompt) this.addPrompt({ ...prompt, scopes: prompt.scopes ?? declaredScopes }, target, methodName, source, handler);
    if (completion) {
      const ref = 'prompt' in completion
        ? { type: 'prompt' as const, name: completion.prompt }
        : { type: 'template' as const, name: completion.resourceTemplate };
      this.registry.addCompletion(completionKey(ref, completion.argument), { handler, source });
    }
  }

  private addTool(meta: McpToolMetadata, target: Type<unknown>, methodName: string, source: string, handler: BoundHandler): void {
    const input = meta.input ?? inferInputDto(target, methodName);
    const closed = this.options.forbidUnknownArguments;
    const inputSchema = input ? dtoToJsonSchema(input, { mode: 'input', closed }) : { type: 'object' as const, properties: {}, ...(closed ? { additionalProperties: false } : {}) };
    const annotations = {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
      ...meta.annotations,
    };
    if (meta.confirmation !== undefined) {
      if (!annotations.destructiveHint) {
        throw new Error(`${source}: confirmation applies to destructive tools only (annotations.destructiveHint: true)`);
      }
      if (meta.confirmation !== 'link' && meta.confirmation !== 'elicitation-or-link') {
        throw new Error(`${source}: confirmation must be 'elicitation-or-link' or 'link', got ${JSON.stringify(meta.confirmation)}`);
      }
    }
    const definition: Tool = {
      name: meta.name,
      ...(meta.title ? { title: meta.title } : {}),
      description: meta.description,
      ...(meta.icons ? { icons: meta.icons } : {}),
      inputSchema: inputSchema as Tool['inputSchema'],
      ...(meta.output ? { outputSchema: envelopeSchema(dtoToJsonSchema(meta.output, { mode: 'output' })) as Tool['outputSchema'] } : {}),
      annotations: { ...(meta.title ? { title: meta.title } : {}), ...annotations },
    };
    this.registry.addTool({
      name: meta.name,
      scopes: meta.scopes ?? [],
      handler,
      source,
      definition,
      encodedDefinition: RawJson.of(definition),
      annotations,
      input: input as Type<object> | undefined,
      structured: !!meta.output,
      ...(meta.confirmation ? { confirmation: meta.confirmation } : {}),
    });
  }

  private addResource(meta: McpResourceMetadata, source: string, handler: BoundHandler): void {
    const common = {
      name: meta.name,
      ...(meta.title ? { title: meta.title } : {}),
      ...(meta.description ? { description: meta.description } : {}),
      ...(meta.mimeType ? { mimeType: meta.mimeType } : {}),
      ...(meta.icons ? { icons: meta.icons } : {}),
    };
    const entry = { name: meta.name, scopes: meta.scopes ?? [], handler, source };
    if (UriTemplate.isTemplate(meta.uri)) {
      this.registry.addTemplate({ ...entry, template: new UriTemplate(meta.uri), definition: { uriTemplate: meta.uri, ...common } });
    } else {
      this.registry.addResource({ ...entry, definition: { uri: meta.uri, ...common } });
    }
  }

  private addPrompt(meta: McpPromptMetadata, target: Type<unknown>, methodName: string, source: string, handler: BoundHandler): void {
    const args = meta.args ?? inferInputDto(target, methodName);
    const schema = args ? dtoToJsonSchema(args, { mode: 'input', closed: this.options.forbidUnknownArguments }) : undefined;
    const required = new Set(schema?.required ?? []);
    const promptArguments = Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
      name,
      ...(property.description ? { description: property.description } : {}),
      required: required.has(name),
    }));
    this.registry.addPrompt({
      name: meta.name,
      scopes: meta.scopes ?? [],
      handler,
      source,
      args: args as Type<object> | undefined,
      definition: {
        name: meta.name,
        ...(meta.title ? { title: meta.title } : {}),
        ...(meta.description ? { description: meta.description } : {}),
        ...(meta.icons ? { icons: meta.icons } : {}),
        ...(promptArguments.length ? { arguments: promptArguments } : {}),
      },
    });
  }
}

const PRIMITIVES: unknown[] = [String, Number, Boolean, Object, Array, Date, Function, Promise];

/**
 * The DTO of a method's input: the type of its `@Body()` (else `@Query()`) parameter on a
 * controller route, or of its first parameter on a provider method. Undefined when there is none.
 */
function inferInputDto(target: Type<unknown>, methodName: string): Type<unknown> | undefined {
  const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', target.prototype, methodName) ?? [];
  const inputIndex = McpHandlerFactory.inputParameterIndex(target, methodName);
  const isRoute = Reflect.hasMetadata(ROUTE_ARGS_METADATA, target, methodName);
  const candidate = inputIndex !== undefined ? paramTypes[inputIndex] : isRoute ? undefined : paramTypes[0];
  if (candidate === undefined) return undefined;
  if (typeof candidate !== 'function' || PRIMITIVES.includes(candidate)) {
    throw new Error(
      `${target.name}.${methodName}: its input is not a DTO class; give the decorator \`input\` (or \`args\`) explicitly`,
    );
  }
  return candidate as Type<unknown>;
}
