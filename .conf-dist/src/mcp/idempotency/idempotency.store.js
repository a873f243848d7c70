export const MCP_IDEMPOTENCY_STORE = Symbol('MCP_IDEMPOTENCY_STORE');
//# sourceMappingURL=idempotency.store.js.map