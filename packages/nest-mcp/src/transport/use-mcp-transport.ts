import type { INestApplication } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import type { AuthenticateBeforeRead } from './json-body.reader.js';
import { createMcpBodyReader } from './mcp-body.reader.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { McpTransportState } from './mcp-transport.state.js';

export interface McpTransportHooks {
  /**
   * Checks the credentials in the headers of a request whose body is above `largeBodyBytes`,
   * before the body is read; rejects (e.g. a 401 `HttpException` with its `WWW-Authenticate`
   * challenge) to refuse it unread. The application's authentication, typically; it may record
   * the caller on the request so its guard need not check again. Without it, bodies are read
   * before authentication, whatever their size.
   */
  authenticateLargeBody?: AuthenticateBeforeRead;
}

/**
 * Mounts the MCP body reader on the endpoint path. Call it right after `NestFactory.create()`,
 * before `listen()`: Nest registers its own JSON parser during init, and the reader must come
 * first so that the size limit, Host and Origin checks run before any parsing or authentication.
 */
export function useMcpTransport(app: INestApplication, hooks: McpTransportHooks = {}): void {
  const options = app.get<ResolvedMcpOptions>(MCP_OPTIONS);
  app.use(options.path, createMcpBodyReader(options, app.get(McpRegistry), hooks.authenticateLargeBody));
  app.get(McpTransportState).mounted = true;
}
