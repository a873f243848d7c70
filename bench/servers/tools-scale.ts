// Case 3: `tools/list` with TOOL_COUNT registered tools (a generated provider, generated DTOs).
// No database, no authentication: only the MCP layer's listing path is measured.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, useMcpTransport } from '@nest-mcp/core';
import { generatedToolsProvider } from '../fixtures/generated-tools.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

const count = Number(process.env.TOOL_COUNT ?? 10);

try {
  if (!Number.isInteger(count) || count < 1) throw new Error(`TOOL_COUNT must be a positive integer, got ${process.env.TOOL_COUNT}`);
  @Module({
    imports: [McpModule.forRoot({ serverInfo: { name: `bench-tools-${count}`, version: '1.0.0' } })],
    providers: [generatedToolsProvider(count)],
  })
  class ToolsScaleModule {}

  const app = await NestFactory.create(ToolsScaleModule, { logger: ['error', 'warn'] });
  useMcpTransport(app);
  await app.listen(PORT, HOST);
  exitOnSignal();
  announceReady(app.getHttpServer().address(), { server: `ours, ${count} tools`, tools: count });
} catch (error) {
  fail(error);
}
