/** Metadata keys, namespaced so they never collide with Nest's or another library's. */
export const MCP_TOOL_METADATA = 'mcp:tool';
export const MCP_RESOURCE_METADATA = 'mcp:resource';
export const MCP_PROMPT_METADATA = 'mcp:prompt';
export const MCP_COMPLETION_METADATA = 'mcp:completion';
export const MCP_SCOPES_METADATA = 'mcp:scopes';

/** Injection token of the resolved module options. */
export const MCP_OPTIONS = Symbol('MCP_OPTIONS');

/** The `ExecutionContext.getType()` of a handler invoked through MCP. */
export const MCP_CONTEXT_TYPE = 'mcp';

/** HTTP headers of the Streamable HTTP transport (lower-case, as Node exposes them). */
export const HEADER_PROTOCOL_VERSION = 'mcp-protocol-version';
export const HEADER_METHOD = 'mcp-method';
export const HEADER_NAME = 'mcp-name';

/** Stateless-era (2026-07-28) protocol revisions; everything else this server speaks uses `initialize`. */
export const STATELESS_VERSIONS: readonly string[] = ['2026-07-28'];
export const DEFAULT_SUPPORTED_VERSIONS: readonly string[] = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
/** What a 2025-era request without `MCP-Protocol-Version` is assumed to speak (2025-06-18 transport spec). */
export const HANDSHAKE_DEFAULT_HEADER_VERSION = '2025-03-26';
