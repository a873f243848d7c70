export const MCP_APPROVAL_GATEWAY = Symbol('MCP_APPROVAL_GATEWAY');
//# sourceMappingURL=approval.gateway.js.map