import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, useMcpTransport } from '@nest-mcp/core';
import { ConformanceFixtureModule } from './conformance-fixture.module.js';

/**
 * Boots the conformance fixture as a real application, set up as an installing app's main.ts
 * would set it up (useMcpTransport before listen; nothing of the billing app). Loopback only
 * (the suite's DNS-rebinding scenario needs a localhost URL), port from PORT (0 = any free port).
 * scripts/conformance.sh waits for the "listening on" line and reads the URL from it.
 */
@Module({
  imports: [McpModule.forRoot({ serverInfo: { name: 'nest-mcp-conformance', version: '1.0.0' }, streams: true }), ConformanceFixtureModule],
})
class ConformanceAppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(ConformanceAppModule, { logger: ['error', 'warn'] });
  useMcpTransport(app);
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  console.log(`listening on http://127.0.0.1:${port}/mcp`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
