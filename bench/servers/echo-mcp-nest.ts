// Case 2: @rekog/mcp-nest (2.x), set up as its README's Quick Start shows: an McpStrategy with a
// StreamableHttpTransport (stateless by default: a fresh SDK server per request, JSON answers),
// connected as a Nest microservice on the HTTP adapter; one @Tool echo with a zod schema on an
// @McpController. No authentication.
import 'reflect-metadata';
import { createRequire } from 'node:module';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import type * as McpNest from '@rekog/mcp-nest';
import { ECHO_DESCRIPTION } from '../fixtures/echo.dto.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

// MCP-Nest is CommonJS and checks schemas with the CommonJS build of zod: load both the way a
// (CommonJS) Nest application using it would, so the schema object comes from the same zod.
const require = createRequire(import.meta.url);
const { McpController, McpStrategy, StreamableHttpTransport, Tool } = require('@rekog/mcp-nest') as typeof McpNest;
const { z } = require('zod') as typeof import('zod');

@McpController()
class EchoController {
  @Tool({
    name: 'echo',
    description: ECHO_DESCRIPTION,
    parameters: z.object({ text: z.string().max(1000).describe('Text to echo back.') }),
    annotations: { readOnlyHint: true },
  })
  echo(@Payload() { text }: { text: string }) {
    return { content: [{ type: 'text', text }] };
  }
}

@Module({ controllers: [EchoController] })
class McpNestEchoModule {}

try {
  const mcp = new McpStrategy({
    name: 'bench-echo-mcp-nest',
    version: '1.0.0',
    transports: [new StreamableHttpTransport()],
    logging: { level: ['error', 'warn'] },
  });
  const app = await NestFactory.create(McpNestEchoModule, { logger: ['error', 'warn'] });
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  await app.listen(PORT, HOST);
  exitOnSignal();
  announceReady(app.getHttpServer().address(), { server: '@rekog/mcp-nest McpStrategy + StreamableHttpTransport (stateless)' });
} catch (error) {
  fail(error);
}
