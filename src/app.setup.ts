import { ValidationPipe, type INestApplication } from '@nestjs/common';
import { useMcpTransport } from './mcp/index.js';
import { setupSwagger } from './swagger.js';

/**
 * Everything `main.ts` does to an application before it listens, in one place so that the
 * end-to-end tests boot exactly what production runs.
 */
export function configureApp(app: INestApplication): void {
  useMcpTransport(app);
  // REST bodies are validated by the same DTO classes the MCP layer validates tool arguments with.
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  setupSwagger(app);
}
