export {};
//# sourceMappingURL=mcp-registry.types.js.map