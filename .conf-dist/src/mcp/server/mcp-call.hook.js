export const MCP_CALL_HOOK = Symbol('MCP_CALL_HOOK');
//# sourceMappingURL=mcp-call.hook.js.map