import { SetMetadata } from '@nestjs/common';
import { MCP_SCOPES_METADATA } from './mcp-metadata.keys.js';

/**
 * The OAuth scopes a caller needs, on a route handler or a whole controller. Written once, read by
 * both sides: the HTTP scope guard of the host application and the MCP lists and calls (a tool,
 * resource or prompt without its own `scopes` option inherits these).
 */
export const RequiredScopes = (...scopes: string[]) => SetMetadata(MCP_SCOPES_METADATA, scopes);
