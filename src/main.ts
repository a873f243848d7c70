import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';

async function bootstrap(): Promise<void> {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  const app = await NestFactory.create(AppModule);
  configureApp(app);
  await app.listen(port, host);

  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const logger = new Logger('Bootstrap');
  logger.log(`MCP endpoint: ${base}/mcp`);
  logger.log(`REST API docs: ${base}/docs`);
}

void bootstrap();
