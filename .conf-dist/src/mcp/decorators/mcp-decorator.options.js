export {};
//# sourceMappingURL=mcp-decorator.options.js.map