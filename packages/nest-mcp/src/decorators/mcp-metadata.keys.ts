/** Metadata keys, namespaced so they never collide with Nest's or another library's. */
export const MCP_TOOL_METADATA = 'mcp:tool';
export const MCP_RESOURCE_METADATA = 'mcp:resource';
export const MCP_PROMPT_METADATA = 'mcp:prompt';
export const MCP_COMPLETION_METADATA = 'mcp:completion';
export const MCP_SCOPES_METADATA = 'mcp:scopes';
