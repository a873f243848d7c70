import { MCP_RESOURCE_METADATA } from './mcp-metadata.keys.js';
import type { McpResourceMetadata, McpResourceOptions } from '../options/mcp-decorator.options.js';
import { checkIcons } from './mcp-icons.js';
import { resolveMcpName } from './mcp-name.js';
import { declareMethodScopes } from './scopes-metadata.js';

/**
 * Exposes a method as an MCP resource: a fixed URI, or an RFC 6570 URI template whose variables
 * reach the method as its input object (and as `@Param(name)` on a controller route). What the
 * method reads (its input DTO, its `@Param` names) must be exactly the template's variables.
 */
export function McpResource(options: McpResourceOptions): MethodDecorator {
  if (!options?.uri || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(options.uri)) {
    throw new Error(`@McpResource: "${options?.uri}" is not an absolute URI or URI template`);
  }
  return (target, propertyKey, descriptor) => {
    const name = resolveMcpName('McpResource', options.name, propertyKey, target);
    const icons = checkIcons(`@McpResource ${name}`, options.icons);
    const metadata: McpResourceMetadata = { ...options, name, ...(icons ? { icons } : {}) };
    Reflect.defineMetadata(MCP_RESOURCE_METADATA, metadata, descriptor.value as object);
    declareMethodScopes('McpResource', descriptor.value as object, options.scopes);
    return descriptor;
  };
}
