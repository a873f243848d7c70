import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { ResourceTemplateEntry } from '../registry/mcp-registry.types.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { validateArguments } from '../schema/dto-argument.validator.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { InvocationBuilder } from '../multi-round/invocation.builder.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { quotedUri, resourceUriParam } from '../protocol/resource-uri.js';
import { CapabilityAccess } from '../access/capability-access.js';
import { toolErrorsFromException } from './tool-error.mapper.js';

/** `resources/list`, `resources/templates/list` and `resources/read` (docs/contract.md §5). */
@Injectable()
export class ResourcesHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
    private readonly invocations: InvocationBuilder,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  list(params: Record<string, unknown>, context: McpRequestContext): ListResourcesResult {
    const { page, nextCursor } = this.access.page('resource', this.registry.resources, params.cursor, context);
    return { resources: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
  }

  listTemplates(params: Record<string, unknown>, context: McpRequestContext): ListResourceTemplatesResult {
    const { page, nextCursor } = this.access.page('resource', this.registry.templates, params.cursor, context);
    return { resourceTemplates: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
  }

  async read(params: Record<string, unknown>, context: McpRequestContext): Promise<ReadResourceResult> {
    const uri = resourceUriParam(params.uri);
    const fixed = this.registry.resource(uri);
    const matched = fixed ? undefined : this.registry.matchTemplate(uri);
    const entry = fixed ?? matched?.entry;
    if (!entry) throw McpProtocolError.invalidParams(`Unknown resource: ${quotedUri(uri)}`, { uri });
    await this.access.assert('resource', entry, context);
    const input = matched ? await this.variablesOf(matched.entry, matched.variables, uri) : {};

    let output: unknown;
    try {
      const invocation = await this.invocations.build('resource', entry.name, {}, context, input);
      invocation.uri = uri;
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
   * What the method receives: the variables validated by its DTO (a malformed one is invalid
   * params, as a bad tool argument is for a tool), or, for a method that types them with no
   * class, the variables object, which throws when the method reads a variable its template does
   * not have rather than answer undefined (and another row than the one asked for).
   */
  private async variablesOf(entry: ResourceTemplateEntry, variables: Record<string, string>, uri: string): Promise<unknown> {
    if (!entry.input) return onlyTemplateVariables(entry, variables);
    const validation = await validateArguments(entry.input, variables, { forbidUnknown: this.options.forbidUnknownArguments });
    if (validation.ok) return validation.value;
    throw McpProtocolError.invalidParams(`Resource ${quotedUri(uri)}: ${validation.violations.map((v) => v.message).join('; ')}`, {
      uri,
      violations: validation.violations,
    });
  }
}

/** Names any code may probe on an object without meaning a variable (serializers, promise checks, inspection). */
const PROBED = new Set(['toJSON', 'then', 'inspect', 'constructor']);

function onlyTemplateVariables(entry: ResourceTemplateEntry, variables: Record<string, string>): Record<string, string> {
  const names = entry.template.variableNames;
  return new Proxy(variables, {
    get(target, property, receiver) {
      if (typeof property === 'string' && !names.includes(property) && !PROBED.has(property) && !(property in Object.prototype)) {
        throw new Error(
          `${entry.source} read \`${property}\` from the variables of ${entry.definition.uriTemplate}, which has only ` +
            `${names.map((name) => `{${name}}`).join(', ')}. Read one of those, or type the variables with a class-validator DTO ` +
            '(or give @McpResource an `input`) so the boot checks them against the template',
        );
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * What a resource method may return: a full `{ contents }`, a string (text), bytes (blob), or
 * any other value (served as JSON).
 */
function toContents(uri: string, output: unknown, mimeType: string | undefined): ReadResourceResult['contents'] {
  if (typeof output === 'object' && output !== null && Array.isArray((output as ReadResourceResult).contents)) {
    return (output as ReadResourceResult).contents;
  }
  if (typeof output === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: output }];
  if (output instanceof Uint8Array) {
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(output).toString('base64') }];
  }
  return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(output) }];
}
