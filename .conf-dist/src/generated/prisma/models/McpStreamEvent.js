export {};
//# sourceMappingURL=McpStreamEvent.js.map