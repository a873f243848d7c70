import { ValidationPipe, type INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { useMcpTransport } from './mcp/index.js';
import { setupSwagger } from './swagger.js';

/** Request body limit of the REST API and of the MCP endpoint (seed 001: 14 MiB). */
export const BODY_LIMIT_BYTES = 14 * 1024 * 1024;

/**
 * Everything `main.ts` does to an application before it listens, in one place so that the
 * end-to-end tests boot exactly what production runs.
 */
export function configureApp(app: INestApplication): void {
  // Names the framework to every scanner, tells a client nothing it needs.
  (app as NestExpressApplication).disable('x-powered-by');
  useMcpTransport(app);
  // REST bodies may carry a base64 attachment (10 MiB → ~13.4 MiB of JSON), like MCP calls.
  (app as NestExpressApplication).useBodyParser('json', { limit: BODY_LIMIT_BYTES });
  // REST bodies are validated by the same DTO classes the MCP layer validates tool arguments with.
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  setupSwagger(app);
}
