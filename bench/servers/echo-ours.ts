// Case 2 and Case 5: our MCP endpoint in a minimal Nest application: McpModule.forRoot and one
// @McpTool echo whose input is a class-validator DTO. No database, no authentication.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpTool, useMcpTransport } from '@nest-mcp/core';
import { ECHO_DESCRIPTION, EchoDto } from '../fixtures/echo.dto.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

@Injectable()
export class EchoTools {
  @McpTool({ name: 'echo', description: ECHO_DESCRIPTION, annotations: { readOnlyHint: true } })
  echo(input: EchoDto) {
    return { text: input.text };
  }
}

@Module({
  imports: [McpModule.forRoot({ serverInfo: { name: 'bench-echo-ours', version: '1.0.0' } })],
  providers: [EchoTools],
})
export class EchoAppModule {}

try {
  const app = await NestFactory.create(EchoAppModule, { logger: ['error', 'warn'] });
  useMcpTransport(app); // required before listen(): the endpoint's own body reader
  await app.listen(PORT, HOST);
  exitOnSignal();
  announceReady(app.getHttpServer().address(), { server: 'ours (nest-mcp, McpModule.forRoot)' });
} catch (error) {
  fail(error);
}
