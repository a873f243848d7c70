import { MCP_PROMPT_METADATA } from '../mcp.constants.js';
import type { McpPromptMetadata, McpPromptOptions } from './mcp-decorator.options.js';
import { resolveMcpName } from './mcp-name.js';
import { declareMethodScopes } from './scopes-metadata.js';

/** Exposes a method as an MCP prompt whose arguments are described and validated by a DTO. */
export function McpPrompt(options: McpPromptOptions = {}): MethodDecorator {
  return (_target, propertyKey, descriptor) => {
    const metadata: McpPromptMetadata = { ...options, name: resolveMcpName('McpPrompt', options.name, propertyKey) };
    Reflect.defineMetadata(MCP_PROMPT_METADATA, metadata, descriptor.value as object);
    declareMethodScopes('McpPrompt', descriptor.value as object, options.scopes);
    return descriptor;
  };
}
