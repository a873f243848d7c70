import { MCP_OPTIONS } from '../mcp.constants.js';
import { createMcpBodyReader } from './mcp-body.reader.js';
import { McpTransportState } from './mcp-transport.state.js';
/**
 * Mounts the MCP body reader on the endpoint path. Call it right after `NestFactory.create()`,
 * before `listen()`: Nest registers its own JSON parser during init, and the reader must come
 * first so that the size limit, Host and Origin checks run before any parsing or authentication.
 */
export function useMcpTransport(app, hooks = {}) {
    const options = app.get(MCP_OPTIONS);
    app.use(options.path, createMcpBodyReader(options, hooks.authenticateLargeBody));
    app.get(McpTransportState).mounted = true;
}
//# sourceMappingURL=use-mcp-transport.js.map