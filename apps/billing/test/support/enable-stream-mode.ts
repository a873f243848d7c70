// Import first in a test file whose application needs stream mode: the AppModule reads
// MCP_STREAMS when it is imported (its McpModule.forRoot options), so it must be set before.
process.env.MCP_STREAMS = 'true';
