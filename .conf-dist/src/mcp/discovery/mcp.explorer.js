var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/internal';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { UriTemplate } from '@modelcontextprotocol/server';
import { MCP_COMPLETION_METADATA, MCP_OPTIONS, MCP_PROMPT_METADATA, MCP_RESOURCE_METADATA, MCP_SCOPES_METADATA, MCP_TOOL_METADATA, } from '../mcp.constants.js';
import { dtoToJsonSchema } from '../schema/dto-json-schema.factory.js';
import { envelopeSchema } from '../server/tool-result.envelope.js';
import { McpHandlerFactory } from './mcp-handler.factory.js';
import { completionKey, McpRegistry } from './mcp.registry.js';
import { RawJson } from '../server/raw-json.js';
import { McpConfirmationInterceptor } from '../confirmation/confirmation.interceptor.js';
import { McpIdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
/**
 * Finds every `@McpTool`, `@McpResource`, `@McpPrompt` and `@McpCompletion` method once, at
 * bootstrap, builds its schema and bound handler, and fills the registry. Duplicate names and
 * DTOs that cannot be described fail the boot with the offending `Class.method`.
 */
let McpExplorer = class McpExplorer {
    discovery;
    scanner;
    handlers;
    registry;
    options;
    idempotency;
    confirmation;
    constructor(discovery, scanner, handlers, registry, options, idempotency, confirmation) {
        this.discovery = discovery;
        this.scanner = scanner;
        this.handlers = handlers;
        this.registry = registry;
        this.options = options;
        this.idempotency = idempotency;
        this.confirmation = confirmation;
    }
    onModuleInit() {
        const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
        for (const wrapper of wrappers) {
            const instance = wrapper.instance;
            if (!instance || typeof instance !== 'object' || wrapper.isAlias)
                continue;
            const prototype = Object.getPrototypeOf(instance);
            for (const methodName of this.scanner.getAllMethodNames(prototype)) {
                this.exploreMethod(wrapper, prototype, methodName);
            }
        }
    }
    exploreMethod(wrapper, prototype, methodName) {
        const method = prototype[methodName];
        const tool = Reflect.getMetadata(MCP_TOOL_METADATA, method);
        const resource = Reflect.getMetadata(MCP_RESOURCE_METADATA, method);
        const prompt = Reflect.getMetadata(MCP_PROMPT_METADATA, method);
        const completion = Reflect.getMetadata(MCP_COMPLETION_METADATA, method);
        if (!tool && !resource && !prompt && !completion)
            return;
        const source = `${prototype.constructor.name}.${methodName}`;
        if (!wrapper.isDependencyTreeStatic()) {
            throw new Error(`${source}: MCP handlers must live on singleton providers or controllers, not request-scoped ones`);
        }
        // The layer's own interceptors wrap only the tools they can act on (a method's one handler
        // serves all its kinds; they pass other kinds through): idempotency outside confirmation.
        const around = tool ? [this.idempotency, this.confirmation].filter((interceptor) => interceptor.appliesTo(tool.annotations ?? {})) : [];
        const handler = this.handlers.create(wrapper, methodName, around);
        const target = prototype.constructor;
        const declaredScopes = Reflect.getMetadata(MCP_SCOPES_METADATA, method) ?? Reflect.getMetadata(MCP_SCOPES_METADATA, target) ?? [];
        if (tool)
            this.addTool({ ...tool, scopes: tool.scopes ?? declaredScopes }, target, methodName, source, handler);
        if (resource)
            this.addResource({ ...resource, scopes: resource.scopes ?? declaredScopes }, source, handler);
        if (prompt)
            this.addPrompt({ ...prompt, scopes: prompt.scopes ?? declaredScopes }, target, methodName, source, handler);
        if (completion) {
            const ref = 'prompt' in completion
                ? { type: 'prompt', name: completion.prompt }
                : { type: 'template', name: completion.resourceTemplate };
            this.registry.addCompletion(completionKey(ref, completion.argument), { handler, source });
        }
    }
    addTool(meta, target, methodName, source, handler) {
        const input = meta.input ?? inferInputDto(target, methodName);
        const closed = this.options.forbidUnknownArguments;
        const inputSchema = input ? dtoToJsonSchema(input, { mode: 'input', closed }) : { type: 'object', properties: {}, ...(closed ? { additionalProperties: false } : {}) };
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
        const definition = {
            name: meta.name,
            ...(meta.title ? { title: meta.title } : {}),
            description: meta.description,
            ...(meta.icons ? { icons: meta.icons } : {}),
            inputSchema: inputSchema,
            ...(meta.output ? { outputSchema: envelopeSchema(dtoToJsonSchema(meta.output, { mode: 'output' })) } : {}),
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
            input: input,
            structured: !!meta.output,
            ...(meta.confirmation ? { confirmation: meta.confirmation } : {}),
        });
    }
    addResource(meta, source, handler) {
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
        }
        else {
            this.registry.addResource({ ...entry, definition: { uri: meta.uri, ...common } });
        }
    }
    addPrompt(meta, target, methodName, source, handler) {
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
};
McpExplorer = __decorate([
    Injectable(),
    __param(4, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [DiscoveryService,
        MetadataScanner,
        McpHandlerFactory,
        McpRegistry, Object, McpIdempotencyInterceptor,
        McpConfirmationInterceptor])
], McpExplorer);
export { McpExplorer };
const PRIMITIVES = [String, Number, Boolean, Object, Array, Date, Function, Promise];
/**
 * The DTO of a method's input: the type of its `@Body()` (else `@Query()`) parameter on a
 * controller route, or of its first parameter on a provider method. Undefined when there is none.
 */
function inferInputDto(target, methodName) {
    const paramTypes = Reflect.getMetadata('design:paramtypes', target.prototype, methodName) ?? [];
    const inputIndex = McpHandlerFactory.inputParameterIndex(target, methodName);
    const isRoute = Reflect.hasMetadata(ROUTE_ARGS_METADATA, target, methodName);
    const candidate = inputIndex !== undefined ? paramTypes[inputIndex] : isRoute ? undefined : paramTypes[0];
    if (candidate === undefined)
        return undefined;
    if (typeof candidate !== 'function' || PRIMITIVES.includes(candidate)) {
        throw new Error(`${target.name}.${methodName}: its input is not a DTO class; give the decorator \`input\` (or \`args\`) explicitly`);
    }
    return candidate;
}
//# sourceMappingURL=mcp.explorer.js.map