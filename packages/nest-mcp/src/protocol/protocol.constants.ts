/** HTTP headers of the Streamable HTTP transport (lower-case, as Node exposes them). */
export const HEADER_PROTOCOL_VERSION = 'mcp-protocol-version';
export const HEADER_METHOD = 'mcp-method';
export const HEADER_NAME = 'mcp-name';

/** Stateless-era (2026-07-28) protocol revisions; everything else this server speaks uses `initialize`. */
export const STATELESS_VERSIONS: readonly string[] = ['2026-07-28'];
/** What a 2025-era request without `MCP-Protocol-Version` is assumed to speak (2025-06-18 transport spec). */
export const HANDSHAKE_DEFAULT_HEADER_VERSION = '2025-03-26';
