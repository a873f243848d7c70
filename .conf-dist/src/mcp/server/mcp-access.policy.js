export const MCP_ACCESS_POLICY = Symbol('MCP_ACCESS_POLICY');
//# sourceMappingURL=mcp-access.policy.js.map