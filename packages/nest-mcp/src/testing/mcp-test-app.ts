import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { useMcpTransport, type McpTransportHooks } from '../transport/use-mcp-transport.js';

export interface McpTestApp {
  app: INestApplication;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /** The MCP endpoint URL (the module's `path`, default /mcp). */
  mcpUrl: string;
  close(): Promise<void>;
}

export interface McpTestAppOptions extends McpTransportHooks {
  /**
   * What the application's `main.ts` does to the app before it listens (global pipes, filters,
   * middleware). Runs after `useMcpTransport`, so the MCP body reader stays first.
   */
  configure?: (app: INestApplication) => void | Promise<void>;
}

/**
 * Boots a module as a real Nest application on a random loopback port, with the MCP transport
 * mounted as an app's `main.ts` mounts it: the app under test for `callTool` and the official clients.
 */
export async function startMcpTestApp(module: Type<unknown>, options: McpTestAppOptions = {}): Promise<McpTestApp> {
  const app = await NestFactory.create(module, { logger: ['error'] });
  useMcpTransport(app, options);
  await options.configure?.(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  const { path } = app.get<ResolvedMcpOptions>(MCP_OPTIONS);
  return { app, baseUrl, mcpUrl: `${baseUrl}${path}`, close: () => app.close() };
}
