import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';

/** The MCP Apps extension's identifier: in `capabilities.extensions` of both sides (docs/app-views.md). */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an app view: HTML a host renders in a sandboxed frame. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * Whether the request's client can show app views: it declared the extension and, when it lists
 * the MIME types it renders (`mimeTypes`), lists `text/html;profile=mcp-app`. Read where the tasks
 * extension is read: on each request in 2026-07-28
 * (`_meta["io.modelcontextprotocol/clientCapabilities"].extensions`), in the session's `initialize`
 * capabilities in the handshake era. A stateless handshake-era request says nothing about its
 * client: false.
 */
export function clientSupportsApps(context: Pick<McpRequestContext, 'clientCapabilities'>): boolean {
  const extensions = (context.clientCapabilities as { extensions?: unknown }).extensions;
  if (!isPlainObject(extensions)) return false;
  const declared = extensions[MCP_APPS_EXTENSION];
  if (!isPlainObject(declared)) return false;
  return !Array.isArray(declared.mimeTypes) || declared.mimeTypes.includes(MCP_APP_MIME_TYPE);
}
