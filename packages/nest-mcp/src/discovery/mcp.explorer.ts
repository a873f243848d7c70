import { Inject, Injectable, Optional, type OnModuleInit, type Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { UriTemplate, type Tool } from '@modelcontextprotocol/server';
import type { McpCompletionOptions, McpPromptMetadata, McpResourceMetadata, McpToolMetadata } from '../options/mcp-decorator.options.js';
import {
  MCP_COMPLETION_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_SCOPES_METADATA,
  MCP_TOOL_METADATA,
} from '../decorators/mcp-metadata.keys.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { dtoToJsonSchema, type DtoSchemaOptions } from '../schema/dto-json-schema.factory.js';
import type { JsonSchema } from '../schema/json-schema.types.js';
import { compileRawInputSchema, type RawInputSchema } from '../schema/raw-json-schema.js';
import { McpRestInputSchemas } from '../rest/rest-input-schemas.js';
import { restArguments } from './rest-arguments.js';
import { MCP_ACCESS_POLICY, type McpAccessPolicy } from '../contracts/access-policy.js';
import { envelopeSchema } from '../tool-results/tool-result.envelope.js';
import { McpHandlerFactory } from './mcp-handler.factory.js';
import { completionKey, McpRegistry } from '../registry/mcp.registry.js';
import type { ToolEntry } from '../invocation/capability-entries.js';
import { RawJson } from '../tool-results/raw-json.js';
import { McpConfirmationInterceptor } from '../confirmation/confirmation.interceptor.js';
import { McpIdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { McpRestBackground } from '../rest/rest-background.js';
import { McpTaskInterceptor } from '../tasks/task.interceptor.js';
import { TASK_SUPPORTS } from '../tasks/task-wire.js';
import { BackgroundRoutes } from './background-routes.js';
import { resolveResourceInput, resolveToolInput, type ToolInput } from './route-input.js';
import { assertRouteParameters } from './route-path.check.js';
import { assertScopesAgree, checkScopeNames, type ScopeUsage } from './scope-declarations.check.js';
import { McpViews } from '../views/mcp-views.js';
import { toolUiMeta } from '../views/tool-ui-meta.js';
import { confirmationViewFor } from '../confirmation/confirmation-view.js';

/**
 * Finds every `@McpTool`, `@McpResource`, `@McpPrompt` and `@McpCompletion` method once, at
 * bootstrap, builds its schema and bound handler, and fills the registry. Whatever would make a
 * capability uncallable or unprotected fails the boot with the offending `Class.method`:
 * duplicate names, DTOs that cannot be described or validated, route parameters the input does
 * not carry, scopes that disagree with `@RequiredScopes()` or that the access policy never declared,
 * a `task: 'background'` route whose REST requests the layer could not answer (`BackgroundRoutes`).
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
    private readonly tasks: McpTaskInterceptor,
    private readonly restBackground: McpRestBackground,
    private readonly restInputSchemas: McpRestInputSchemas,
    private readonly modules: ModulesContainer,
    private readonly views: McpViews,
    @Optional() @Inject(MCP_ACCESS_POLICY) private readonly policy?: McpAccessPolicy,
  ) {}

  onModuleInit(): void {
    const backgroundRoutes = new BackgroundRoutes(this.modules.applicationId);
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    const scopeUsages: ScopeUsage[] = [];
    for (const wrapper of wrappers) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isAlias) continue;
      const prototype = Object.getPrototypeOf(instance);
      const classScopes: string[] | undefined = Reflect.getMetadata(MCP_SCOPES_METADATA, prototype.constructor);
      if (classScopes) scopeUsages.push({ source: prototype.constructor.name, scopes: classScopes });
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const methodScopes: string[] | undefined = Reflect.getMetadata(MCP_SCOPES_METADATA, prototype[methodName]);
        if (methodScopes) scopeUsages.push({ source: `${prototype.constructor.name}.${methodName}`, scopes: methodScopes });
        this.exploreMethod(wrapper, prototype, methodName, backgroundRoutes);
      }
    }
    checkScopeNames(this.policy?.declaredScopes?.(), scopeUsages);
    const jobTool = this.options.tasks.jobTool ? this.registry.tool(this.options.tasks.jobTool) : undefined;
    for (const [handler, route] of backgroundRoutes.resolve(jobTool)) this.restBackground.add(handler, route);
  }

  private exploreMethod(
    wrapper: InstanceWrapper,
    prototype: Record<string, object>,
    methodName: string,
    backgroundRoutes: BackgroundRoutes,
  ): void {
    const method = prototype[methodName];
    const tool: McpToolMetadata | undefined = Reflect.getMetadata(MCP_TOOL_METADATA, method);
    const resource: McpResourceMetadata | undefined = Reflect.getMetadata(MCP_RESOURCE_METADATA, method);
    const prompt: McpPromptMetadata | undefined = Reflect.getMetadata(MCP_PROMPT_METADATA, method);
    const completion: McpCompletionOptions | undefined = Reflect.getMetadata(MCP_COMPLETION_METADATA, method);
    if (!tool && !resource && !prompt && !completion) return;

    const source = `${prototype.constructor.name}.${methodName}`;
    // Either key says the compiler emitted metadata (a method decorated by hand may carry only its parameter types).
    if (!Reflect.hasMetadata('design:type', prototype, methodName) && !Reflect.hasMetadata('design:paramtypes', prototype, methodName))
      throw new Error(missingDecoratorMetadata(source));
    if (!wrapper.isDependencyTreeStatic()) {
      throw new Error(`${source}: MCP handlers must live on singleton providers or controllers, not request-scoped ones`);
    }
    // The layer's own interceptors wrap only the tools they can act on (a method's one handler
    // serves all its kinds; they pass other kinds through): idempotency outside confirmation, and
    // the task boundary last: what runs before it is checked in the request, the rest in the task.
    const around = tool ? [this.idempotency, this.confirmation, this.tasks].filter((interceptor) => interceptor.appliesTo(tool)) : [];
    const target = prototype.constructor as Type<unknown>;
    const toolInput = tool ? toolInputOf(target, methodName, source, tool) : undefined;
    const promptInput = prompt ? resolveToolInput(target, methodName, source, prompt.args) : undefined;
    const variables = resource ? templateVariables(resource.uri) : undefined;
    const resourceInput =
      resource && variables ? resolveResourceInput(target, methodName, source, resource.uri, variables, resource.input) : undefined;
    assertRouteParameters(target, methodName, source, wrapper.host?.metatype);
    const handler = this.handlers.create(wrapper, methodName, around, (toolInput ?? promptInput ?? resourceInput)?.slices);
    const origin = { class: target, method: method as Function };
    const routeScopes: string[] | undefined = Reflect.getMetadata(MCP_SCOPES_METADATA, method);
    assertScopesAgree(source, routeScopes, { McpTool: tool?.scopes, McpResource: resource?.scopes, McpPrompt: prompt?.scopes });
    const declaredScopes: string[] = routeScopes ?? Reflect.getMetadata(MCP_SCOPES_METADATA, target) ?? [];
    if (tool) this.addTool({ ...tool, scopes: tool.scopes ?? declaredScopes }, toolInput!, { source, origin, handler });
    const rawInputSchema = tool && this.registry.tool(tool.name)?.rawInputSchema;
    if (rawInputSchema) {
      this.restInputSchemas.add(method as Function, { schema: rawInputSchema, argumentsOf: restArguments(target, methodName).read });
    }
    if (tool) backgroundRoutes.add(tool, { source, target, methodName, module: wrapper.host?.metatype }, toolInput!.dto);
    if (resource) this.addResource({ ...resource, scopes: resource.scopes ?? declaredScopes }, resourceInput!, { source, origin, handler });
    if (prompt) this.addPrompt({ ...prompt, scopes: prompt.scopes ?? declaredScopes }, promptInput!, { source, origin, handler });
    if (completion) {
      const ref =
        'prompt' in completion
          ? { type: 'prompt' as const, name: completion.prompt }
          : { type: 'template' as const, name: completion.resourceTemplate };
      this.registry.addCompletion(completionKey(ref, completion.argument), { handler, source });
    }
  }

  private addTool(meta: McpToolMetadata, { dto: input }: ToolInput, bound: BoundMethod): void {
    const { source } = bound;
    const closed = this.options.forbidUnknownArguments;
    const raw = meta.inputSchema !== undefined ? rawInputSchemaOf(source, meta.inputSchema, input) : undefined;
    const inputSchema =
      raw?.schema ??
      (input
        ? schemaOf(source, input, { mode: 'input', closed })
        : { type: 'object' as const, properties: {}, ...(closed ? { additionalProperties: false } : {}) });
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
    if (meta.task !== undefined && !TASK_SUPPORTS.includes(meta.task)) {
      throw new Error(`${source}: task must be one of ${TASK_SUPPORTS.map((t) => `'${t}'`).join(', ')}, got ${JSON.stringify(meta.task)}`);
    }
    const definition: Tool = {
      name: meta.name,
      ...(meta.title ? { title: meta.title } : {}),
      description: meta.description,
      ...(meta.icons ? { icons: meta.icons } : {}),
      inputSchema: inputSchema as Tool['inputSchema'],
      ...(meta.output
        ? {
            outputSchema: envelopeSchema(
              meta.task === 'background'
                ? queuedOrOutput(schemaOf(source, meta.output, { mode: 'output' }))
                : schemaOf(source, meta.output, { mode: 'output' }),
              this.options.toolErrorFields,
            ) as Tool['outputSchema'],
          }
        : {}),
      annotations: { ...(meta.title ? { title: meta.title } : {}), ...annotations },
      // The app view shown with the results and who may call the tool (docs/app-views.md).
      // A destructive tool without a view of its own shows the confirmation view (confirmationView).
      ...toolUiMeta({ ...meta, view: meta.view ?? confirmationViewFor(annotations, this.options) }, this.views, source),
    };
    this.registry.addTool({
      name: meta.name,
      scopes: meta.scopes ?? [],
      ...bound,
      definition,
      encodedDefinition: RawJson.of(definition),
      annotations,
      input: input,
      ...(raw ? { rawInputSchema: raw } : {}),
      structured: !!meta.output,
      ...(meta.confirmation ? { confirmation: meta.confirmation } : {}),
      ...(meta.task ? { task: meta.task } : {}),
    });
  }

  private addResource(meta: McpResourceMetadata, { dto: input }: ToolInput, bound: BoundMethod): void {
    const common = {
      name: meta.name,
      ...(meta.title ? { title: meta.title } : {}),
      ...(meta.description ? { description: meta.description } : {}),
      ...(meta.mimeType ? { mimeType: meta.mimeType } : {}),
      ...(meta.icons ? { icons: meta.icons } : {}),
    };
    const entry = { name: meta.name, scopes: meta.scopes ?? [], ...bound };
    if (UriTemplate.isTemplate(meta.uri)) {
      if (input) schemaOf(bound.source, input, { mode: 'input' }); // fails the boot on a DTO that cannot validate
      this.registry.addTemplate({
        ...entry,
        template: new UriTemplate(meta.uri),
        definition: { uriTemplate: meta.uri, ...common },
        ...(input ? { input } : {}),
      });
    } else {
      this.registry.addResource({ ...entry, definition: { uri: meta.uri, ...common } });
    }
  }

  private addPrompt(meta: McpPromptMetadata, { dto: args }: ToolInput, bound: BoundMethod): void {
    const schema = args ? schemaOf(bound.source, args, { mode: 'input', closed: this.options.forbidUnknownArguments }) : undefined;
    const required = new Set(schema?.required ?? []);
    const promptArguments = Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
      name,
      ...(property.description ? { description: property.description } : {}),
      required: required.has(name),
    }));
    this.registry.addPrompt({
      name: meta.name,
      scopes: meta.scopes ?? [],
      ...bound,
      args: args,
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

/** What every registry entry of one decorated method shares. */
type BoundMethod = Pick<ToolEntry, 'source' | 'origin' | 'handler'>;

/** The variables of a URI template; none for a fixed URI. */
function templateVariables(uri: string): string[] {
  return UriTemplate.isTemplate(uri) ? new UriTemplate(uri).variableNames : [];
}

/**
 * TypeScript's decorator metadata (`design:type`, `design:paramtypes`) is what tells the layer a
 * method's input DTO and a DTO's property types; without it tools would lose their input and
 * schemas their types. Every decorated method has `design:type` and `design:paramtypes` when it is emitted.
 */
function missingDecoratorMetadata(source: string): string {
  return (
    `${source}: decorator metadata is missing (Reflect.getMetadata('design:type' / 'design:paramtypes') is undefined), so ` +
    "the layer cannot see this method's input DTO nor its DTOs' property types. The code was compiled without " +
    'emitDecoratorMetadata: tsx and esbuild never emit it. Compile with tsc ("emitDecoratorMetadata": true with ' +
    '"experimentalDecorators": true) or SWC (jsc.transform.decoratorMetadata: true, as Nest\'s SWC builder does); ' +
    'Vitest 4 keeps the metadata'
  );
}

/**
 * A tool's input: with a raw `inputSchema` and no `input`, none but the schema (the handler reads
 * the arguments as sent, whatever its parameters are typed with); otherwise as `resolveToolInput` decides.
 */
function toolInputOf(target: Type<unknown>, methodName: string, source: string, tool: McpToolMetadata): ToolInput {
  if (tool.inputSchema === undefined || tool.input) return resolveToolInput(target, methodName, source, tool.input);
  return { slices: { named: McpHandlerFactory.namedArguments(target, methodName), whole: {} } };
}

/**
 * A raw `inputSchema`, compiled (raw-json-schema.ts); an error names the method. A DTO given beside
 * it must require what the schema's root requires: the schema is what clients see, the DTO what
 * the handler gets, and a property only one of them requires would pass one and fail the other.
 */
function rawInputSchemaOf(source: string, schema: unknown, dto: Type<object> | undefined): RawInputSchema {
  let raw: RawInputSchema;
  try {
    raw = compileRawInputSchema(schema);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
  if (!dto) return raw;
  const dtoRequired = schemaOf(source, dto, { mode: 'input' }).required ?? [];
  const schemaRequired = [...raw.required];
  if (dtoRequired.length === schemaRequired.length && dtoRequired.every((name) => schemaRequired.includes(name))) return raw;
  const list = (names: readonly string[]) => (names.length ? names.map((name) => `\`${name}\``).join(', ') : 'none');
  throw new Error(
    `${source}: its inputSchema and its input ${dto.name} disagree on the required properties: inputSchema.required lists ` +
      `${list(schemaRequired)}, ${dto.name} requires ${list(dtoRequired)}. Make them the same list (mark a property ` +
      `@IsOptional() in ${dto.name}, or add or remove it in inputSchema.required)`,
  );
}

/** A DTO's schema; an error names the method it was built for. */
function schemaOf(source: string, dto: Type<unknown>, options: DtoSchemaOptions): JsonSchema {
  try {
    return dtoToJsonSchema(dto, options);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
}

/**
 * A background tool answers a client without the tasks extension `status: "queued"` with the job
 * (docs/tasks.md): its `data` is then the job, not the output, and a client that checks results
 * against `outputSchema` (the 1.x SDK does) must accept both.
 */
function queuedOrOutput(output: JsonSchema): JsonSchema {
  const job: JsonSchema = {
    type: 'object',
    description: 'When status is queued: the job to follow with the job tool.',
    properties: { jobId: { type: 'string' }, queuedAt: { type: 'string', format: 'date-time' } },
    required: ['jobId', 'queuedAt'],
  };
  return { anyOf: [output, job], description: output.description ?? 'The result, or the queued job.' };
}
