import { MCP_PROMPT_METADATA } from '../mcp.constants.js';
import { checkIcons } from './mcp-icons.js';
import { resolveMcpName } from './mcp-name.js';
/** Exposes a method as an MCP prompt whose arguments are described and validated by a DTO. */
export function McpPrompt(options = {}) {
    return (target, propertyKey, descriptor) => {
        const name = resolveMcpName('McpPrompt', options.name, propertyKey, target);
        const icons = checkIcons(`@McpPrompt ${name}`, options.icons);
        const metadata = { ...options, name, ...(icons ? { icons } : {}) };
        Reflect.defineMetadata(MCP_PROMPT_METADATA, metadata, descriptor.value);
        return descriptor;
    };
}
//# sourceMappingURL=mcp-prompt.decorator.js.map