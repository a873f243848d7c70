import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { demoModeFromEnv, startDemo } from './demo/demo-mode.js';
import { prepareDatabase } from './database/prepare-database.js';
import { gracefulShutdown } from './health/graceful-shutdown.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity/identity.config.js';

async function bootstrap(): Promise<void> {
  const logger = new Logger('Bootstrap');
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  let stopping = false;
  // Demo data, password and token only in demo mode (DEMO; see demo-mode.ts for the default).
  const demoMode = demoModeFromEnv();

  // A fresh DATABASE_URL gets the migrations too (idempotent); DATABASE_MIGRATE=false leaves them to a deploy step.
  const database = await prepareDatabase({
    logger: (line) => logger.log(line),
    migrate: process.env.DATABASE_MIGRATE !== 'false' ? true : undefined,
  });
  const app = await NestFactory.create(AppModule);
  configureApp(app);
  const demo = demoMode ? await startDemo(app) : undefined;
  await app.listen(port, host);
  // On SIGINT/SIGTERM: readiness turns 503, the server stops accepting connections, requests in
  // flight finish (SHUTDOWN_TIMEOUT_MS, default 10 s), Nest closes (the database pool with it),
  // then the embedded database stops. A second signal exits at once.
  const shutdown = gracefulShutdown(app, { afterClose: () => database.close() });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn(`${signal} again: exiting without waiting`);
        process.exit(1);
      }
      stopping = true;
      logger.log(`${signal} received`);
      shutdown().then(
        (report) => process.exit(report.closed ? 0 : 1),
        (error: Error) => {
          logger.error(`Shutdown failed: ${error.stack ?? error.message}`);
          process.exit(1);
        },
      );
    });
  }

  // The public URL, fixed now that the server listens: PUBLIC_URL, else the address bound (PORT=0 picks a free port).
  const base = app.get<IdentityConfig>(IDENTITY_CONFIG).publicUrl;
  logger.log(`Database: ${database.embedded ? 'embedded PostgreSQL (PGlite, .data/pglite)' : 'DATABASE_URL'}`);
  logger.log(`MCP endpoint: ${base}/mcp`);
  logger.log(`REST API docs: ${base}/docs`);
  logger.log(`Admin pages: ${base}/admin${demo ? ` ${demo.signInHint}` : ''}`);
  if (!demo) logger.log('Demo mode off (DEMO=true to seed the demo workspace and print a demo token)');
  demo?.print();
}

void bootstrap();
