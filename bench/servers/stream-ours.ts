// Case 7: our endpoint in stream mode (McpModule.forRoot({ streams: true })), one echo tool that
// reports progress three times before it answers. Asked with a progress token and an Accept that
// lists text/event-stream, the answer is an SSE stream (three notifications, then the result);
// asked without a token, nothing is emitted and the answer stays plain JSON.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type McpInvocation, McpModule, McpTool, useMcpTransport } from '@nest-mcp/core';
import { ECHO_DESCRIPTION, EchoDto } from '../fixtures/echo.dto.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

@Injectable()
export class ProgressEchoTools {
  @McpTool({ name: 'echo', description: ECHO_DESCRIPTION, annotations: { readOnlyHint: true } })
  async echo(input: EchoDto, invocation: McpInvocation) {
    for (let done = 1; done <= 3; done++) await invocation.progress(done, 3, `step ${done} of 3`);
    return { text: input.text };
  }
}

@Module({
  imports: [McpModule.forRoot({ serverInfo: { name: 'bench-stream-ours', version: '1.0.0' }, streams: true })],
  providers: [ProgressEchoTools],
})
export class StreamEchoAppModule {}

try {
  const app = await NestFactory.create(StreamEchoAppModule, { logger: ['error', 'warn'] });
  useMcpTransport(app);
  await app.listen(PORT, HOST);
  exitOnSignal();
  announceReady(app.getHttpServer().address(), { server: 'ours in stream mode (McpModule.forRoot({ streams: true }))' });
} catch (error) {
  fail(error);
}
