import assert from 'node:assert/strict';
import { Module, type Type as ClassType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, useMcpTransport } from '@nest-mcp/core';

/** Boots `module` as an application would (useMcpTransport, init); returns the boot error's message. */
export async function bootError(module: ClassType<unknown>): Promise<string> {
  const app = await NestFactory.create(module, { logger: false, abortOnError: false });
  useMcpTransport(app);
  try {
    await app.init();
  } catch (error) {
    return (error as Error).message;
  } finally {
    await app.close().catch(() => undefined);
  }
  return assert.fail('the application booted');
}

/** `bootError` of an application made of `classes` (controllers: those with a route path; the rest providers) and `McpModule.forRoot({})`. */
export function bootErrorOf(...classes: ClassType<unknown>[]): Promise<string> {
  const controllers = classes.filter((c) => Reflect.hasMetadata('path', c));
  const providers = classes.filter((c) => !controllers.includes(c));
  @Module({ imports: [McpModule.forRoot({})], controllers, providers })
  class MistakenApp {}
  return bootError(MistakenApp);
}
