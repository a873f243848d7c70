export {};
//# sourceMappingURL=mcp-invocation.js.map