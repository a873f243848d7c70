import { MCP_RESOURCE_METADATA } from '../mcp.constants.js';
import { checkIcons } from './mcp-icons.js';
import { resolveMcpName } from './mcp-name.js';
/**
 * Exposes a method as an MCP resource: a fixed URI, or an RFC 6570 URI template whose variables
 * reach the method as its input object (and as `@Param(name)` on a controller route).
 */
export function McpResource(options) {
    if (!options?.uri || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(options.uri)) {
        throw new Error(`@McpResource: "${options?.uri}" is not an absolute URI or URI template`);
    }
    return (target, propertyKey, descriptor) => {
        const name = resolveMcpName('McpResource', options.name, propertyKey, target);
        const icons = checkIcons(`@McpResource ${name}`, options.icons);
        const metadata = { ...options, name, ...(icons ? { icons } : {}) };
        Reflect.defineMetadata(MCP_RESOURCE_METADATA, metadata, descriptor.value);
        return descriptor;
    };
}
//# sourceMappingURL=mcp-resource.decorator.js.map