export {};
//# sourceMappingURL=McpSession.js.map