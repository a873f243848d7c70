import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { configureApp } from '../../src/app.setup.js';

export interface TestApp {
  app: INestApplication;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /** The MCP endpoint URL. */
  mcpUrl: string;
  close(): Promise<void>;
}

/**
 * Boots a real Nest application on a loopback port (`port`, default any free one), configured as
 * `main.ts` configures it. A boot that fails rejects with the boot error and leaves nothing open
 * (Nest's default would abort the process on a dependency error; an app half started would keep
 * the test file's process alive until the runner's timeout).
 */
export async function startTestApp(module: Type<unknown> | DynamicModule, path = '/mcp', port = 0): Promise<TestApp> {
  const app = await NestFactory.create(module, { logger: ['error'], abortOnError: false });
  try {
    configureApp(app);
    await app.listen(port, '127.0.0.1');
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return { app, baseUrl, mcpUrl: `${baseUrl}${path}`, close: () => app.close() };
}
