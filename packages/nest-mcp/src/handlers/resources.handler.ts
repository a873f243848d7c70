import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { byName, McpRegistry } from '../registry/mcp.registry.js';
import type { ResourceTemplateEntry } from '../invocation/capability-entries.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { validateArguments } from '../schema/dto-argument.validator.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { JsonConversionError, toJsonValue } from '../tool-results/json-value.js';
import { quotedUri, resourceUriParam } from '../protocol/resource-uri.js';
import { CapabilityAccess } from '../access/capability-access.js';
import { toolErrorsFromException } from './tool-error.mapper.js';
import { McpViews } from '../views/mcp-views.js';
import { SkillsHandler } from '../skills/skills.handler.js';
import { paginate } from '../protocol/list-pagination.js';

/** `resources/list`, `resources/templates/list` and `resources/read` (docs/contract.md §5). */
@Injectable()
export class ResourcesHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    private readonly invocations: InvocationBuilder,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly views: McpViews,
    private readonly skills: SkillsHandler,
  ) {}

  list(params: Record<string, unknown>, context: McpRequestContext): ListResourcesResult {
    if (this.views.any || this.skills.any) return this.listWithViews(params, context);
    const { page, nextCursor } = this.access.page('resource', this.registry.resources, params.cursor, context);
    return { resources: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
  }

  /** The resources and the app views the caller may see, in one name order (docs/app-views.md). */
  private listWithViews(params: Record<string, unknown>, context: McpRequestContext): ListResourcesResult {
    const resources = [
      ...this.access.visible('resource', this.registry.resources, context).map((e) => e.definition),
      ...this.views.visible(context).map((view) => this.views.resource(view)),
      // The SKILL.md of each skill the caller may see (docs/skills.md); its other files are reached through the skill.
      ...this.skills.listedResources(context),
    ].sort(byName);
    const { page, nextCursor } = paginate(resources, params.cursor, this.options.pageSize);
    return { resources: page, ...(nextCursor ? { nextCursor } : {}) };
  }

  listTemplates(params: Record<string, unknown>, context: McpRequestContext): ListResourceTemplatesResult {
    const { page, nextCursor } = this.access.page('resource', this.registry.templates, params.cursor, context);
    return { resourceTemplates: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
  }

  async read(params: Record<string, unknown>, context: McpRequestContext): Promise<ReadResourceResult> {
    const uri = resourceUriParam(params.uri);
    const view = this.views.view(uri);
    if (view) return { contents: this.views.contents(await this.views.readable(view, context)) };
    const skillFile = this.skills.read(uri, context);
    if (skillFile) return skillFile;
    const fixed = this.registry.resource(uri);
    const matched = fixed ? undefined : this.registry.matchTemplate(uri);
    const entry = fixed ?? matched?.entry;
    if (!entry) throw McpProtocolError.invalidParams(`Unknown resource: ${quotedUri(uri)}`, { uri });
    await this.access.assert('resource', entry, context);
    const input = matched ? await this.variablesOf(matched.entry, matched.variables, uri) : {};

    let output: unknown;
    try {
      const target = { kind: 'resource' as const, name: entry.name, uri, ...(matched ? { template: matched.entry } : {}) };
      const invocation = await this.invocations.build(target, {}, context, input);
      output = await entry.handler(invocation);
    } catch (exception) {
      // A template that matched but names nothing that exists is an unknown resource, not a fault.
      const errors = toolErrorsFromException(exception);
      if (!errors) throw exception;
      throw McpProtocolError.invalidParams(`Resource ${quotedUri(uri)}: ${errors.map((e) => e.message).join('; ')}`, { uri });
    }
    return { contents: toContents(uri, output, entry.definition.mimeType) };
  }

  /**
   * The read's input: the variables validated by its DTO (a malformed one is invalid params, as a
   * bad tool argument is for a tool), or, for a method that types them with no class, the plain
   * variables (the method itself gets a view that refuses any other name: `templateVariablesView`).
   */
  private async variablesOf(entry: ResourceTemplateEntry, variables: Record<string, string>, uri: string): Promise<unknown> {
    if (!entry.input) return { ...variables };
    const validation = await validateArguments(entry.input, variables, { forbidUnknown: this.options.forbidUnknownArguments });
    if (validation.ok) return validation.value;
    throw McpProtocolError.invalidParams(`Resource ${quotedUri(uri)}: ${validation.violations.map((v) => v.message).join('; ')}`, {
      uri,
      violations: validation.violations,
    });
  }
}

/**
 * What a resource method may return: a full `{ contents }`, a string (text), bytes (blob), or
 * any other value (served as JSON, written by `toJsonValue`: a `BigInt` as a string, a `Map` as
 * an object, as a tool's result is). A value JSON cannot carry is the server's fault: logged with
 * where it sits, answered `-32603` saying so (no limit: a resource is where large content goes).
 */
function toContents(uri: string, output: unknown, mimeType: string | undefined): ReadResourceResult['contents'] {
  if (typeof output === 'object' && output !== null && Array.isArray((output as ReadResourceResult).contents)) {
    return (output as ReadResourceResult).contents;
  }
  if (typeof output === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: output }];
  if (output instanceof Uint8Array) {
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(output).toString('base64') }];
  }
  let json: unknown;
  try {
    json = toJsonValue(output);
  } catch (error) {
    if (!(error instanceof JsonConversionError)) throw error;
    resourceLogger.error(`Resource ${quotedUri(uri)} returned content that cannot be sent as JSON: ${error.message}`);
    throw new McpProtocolError(
      McpErrorCode.InternalError,
      `The content of ${quotedUri(uri)} could not be sent: the server built a value that JSON cannot represent. ` +
        'This is a fault of the server; retrying will not help.',
      HttpStatus.OK,
    );
  }
  return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(json) }];
}

const resourceLogger = new Logger('McpResources');
