import type { Prompt, Resource, ResourceTemplateType, Tool, UriTemplate } from '@modelcontextprotocol/server';
import type { Type } from '@nestjs/common';
import type { McpInvocation } from './mcp-invocation.js';
import type { McpConfirmationMode } from '../options/mcp-options.interface.js';
import type { McpTaskSupport, McpToolAnnotations } from '../options/mcp-decorator.options.js';
import type { RawInputSchema } from '../schema/raw-json-schema.js';
import type { McpHeaderParameter } from '../schema/header-parameters.js';

/** A decorated method bound to its instance and wrapped in Nest's guards, interceptors and pipes. */
export type BoundHandler = (invocation: McpInvocation) => Promise<unknown>;

interface EntryBase {
  name: string;
  scopes: string[];
  handler: BoundHandler;
  /** `Class.method`, for error messages at boot. */
  source: string;
  /**
   * The decorated method and its class, for an application's own boot checks (read their
   * metadata with `Reflector.getAllAndOverride(key, [origin.method, origin.class])`).
   */
  origin: { class: Type<unknown>; method: Function };
}

export interface ToolEntry extends EntryBase {
  /** The wire form served by `tools/list`, built once at bootstrap. */
  definition: Tool;
  /** `definition` encoded once (UTF-8 JSON): `tools/list` pages copy these bytes. */
  encodedDefinition: Buffer;
  annotations: Required<McpToolAnnotations>;
  input?: Type<object>;
  /**
   * The `inputSchema` the decorator gave, compiled (raw-json-schema.ts): `definition.inputSchema` is
   * then that very object, and every call (MCP, or REST to the route) is held to it before `input`.
   * Whatever built it, `definition.inputSchema` is the published input schema.
   */
  rawInputSchema?: RawInputSchema;
  /** True when results are wrapped in the JSON envelope with `structuredContent`. */
  structured: boolean;
  /** Destructive tools: how a person confirms, as the tool declared it (default `elicitation-or-link`). */
  confirmation?: McpConfirmationMode;
  /** Whether (and for whom) calls run as tasks; undefined: always in the request. */
  task?: McpTaskSupport;
  /**
   * The arguments clients mirror into `Mcp-Param-<name>` headers: read by the registry from
   * `definition.inputSchema` (whatever built it) when the tool is added, checked on every call.
   */
  headerParameters: readonly McpHeaderParameter[];
}

export interface ResourceEntry extends EntryBase {
  definition: Resource;
}

export interface ResourceTemplateEntry extends EntryBase {
  definition: ResourceTemplateType;
  template: UriTemplate;
  /**
   * Validates the template's variables on each read (a malformed value is invalid params); its
   * properties are exactly the template's variables (checked at boot). Undefined when the method
   * types them with no class: the variables object then refuses to be read outside the template.
   */
  input?: Type<object>;
}

export interface PromptEntry extends EntryBase {
  definition: Prompt;
  args?: Type<object>;
}

export interface CompletionEntry {
  handler: BoundHandler;
  source: string;
}
