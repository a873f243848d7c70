import type { INestApplication } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { createMcpBodyReader } from './mcp-body.reader.js';
import { McpTransportState } from './mcp-transport.state.js';

/**
 * Mounts the MCP body reader on the endpoint path. Call it right after `NestFactory.create()`,
 * before `listen()`: Nest registers its own JSON parser during init, and the reader must come
 * first so that the size limit, Host and Origin checks run before any parsing or authentication.
 */
export function useMcpTransport(app: INestApplication): void {
  const options = app.get<ResolvedMcpOptions>(MCP_OPTIONS);
  app.use(options.path, createMcpBodyReader(options));
  app.get(McpTransportState).mounted = true;
}
