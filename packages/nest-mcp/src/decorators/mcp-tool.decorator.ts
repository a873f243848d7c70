import { MCP_TOOL_METADATA } from './mcp-metadata.keys.js';
import type { McpToolMetadata, McpToolOptions } from '../options/mcp-decorator.options.js';
import { checkIcons } from './mcp-icons.js';
import { resolveMcpName } from './mcp-name.js';
import { answeredInBackgroundOverRest } from './rest-background.interceptor.js';
import { validatedByInputSchemaOverRest } from './rest-input-schema.interceptor.js';
import { declareMethodScopes } from './scopes-metadata.js';

/**
 * Exposes a provider method or a controller route handler as an MCP tool. The input DTO is the
 * tool's `inputSchema` and its validator; guards, interceptors and pipes run as they do over HTTP.
 * A `task: 'background'` route answers REST `202 Accepted` with the queued job (`answeredInBackgroundOverRest`).
 */
export function McpTool(options: McpToolOptions): MethodDecorator {
  if (!options?.description?.trim()) {
    throw new Error('@McpTool: a description is required; it is what the model reads to choose the tool');
  }
  return (target, propertyKey, descriptor) => {
    const name = resolveMcpName('McpTool', options.name, propertyKey, target);
    const icons = checkIcons(`@McpTool ${name}`, options.icons);
    const metadata: McpToolMetadata = { ...options, name, ...(icons ? { icons } : {}) };
    Reflect.defineMetadata(MCP_TOOL_METADATA, metadata, descriptor.value as object);
    declareMethodScopes('McpTool', descriptor.value as object, options.scopes);
    if (options.task === 'background') answeredInBackgroundOverRest(target, propertyKey, descriptor);
    // After the background one: a background route's REST request is answered (and validated) there.
    if (options.inputSchema) validatedByInputSchemaOverRest(target, propertyKey, descriptor);
    return descriptor;
  };
}
