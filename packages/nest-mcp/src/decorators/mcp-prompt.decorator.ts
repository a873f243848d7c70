import { MCP_PROMPT_METADATA } from './mcp-metadata.keys.js';
import type { McpPromptMetadata, McpPromptOptions } from '../options/mcp-decorator.options.js';
import { checkIcons } from './mcp-icons.js';
import { resolveMcpName } from './mcp-name.js';
import { declareMethodScopes } from './scopes-metadata.js';

/** Exposes a method as an MCP prompt whose arguments are described and validated by a DTO. */
export function McpPrompt(options: McpPromptOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const name = resolveMcpName('McpPrompt', options.name, propertyKey, target);
    const icons = checkIcons(`@McpPrompt ${name}`, options.icons);
    const metadata: McpPromptMetadata = { ...options, name, ...(icons ? { icons } : {}) };
    Reflect.defineMetadata(MCP_PROMPT_METADATA, metadata, descriptor.value as object);
    declareMethodScopes('McpPrompt', descriptor.value as object, options.scopes);
    return descriptor;
  };
}
