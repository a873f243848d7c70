import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { DEMO_ADMIN_EMAIL, DEMO_WORKSPACE, seedDemo } from './database/demo-seed.js';
import { prepareDatabase } from './database/prepare-database.js';
import { gracefulShutdown } from './health/graceful-shutdown.js';
import { PrismaService } from './database/prisma.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity/identity.config.js';
import { PersonalTokenService } from './identity/personal-token.service.js';
import { ALL_SCOPES } from './identity/roles.js';

async function bootstrap(): Promise<void> {
  const logger = new Logger('Bootstrap');
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  let stopping = false;

  // A fresh DATABASE_URL gets the migrations too (idempotent); DATABASE_MIGRATE=false leaves them to a deploy step.
  const database = await prepareDatabase({
    logger: (line) => logger.log(line),
    migrate: process.env.DATABASE_MIGRATE !== 'false' ? true : undefined,
  });
  const app = await NestFactory.create(AppModule);
  configureApp(app);
  // The demo admin's password for the admin pages: DEMO_ADMIN_PASSWORD, or a new one printed below.
  const generatedPassword = process.env.DEMO_ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  await seedDemo(app.get(PrismaService), { billing: true, adminPassword: process.env.DEMO_ADMIN_PASSWORD || generatedPassword });
  const demo = await app.get(PersonalTokenService).mint({
    email: DEMO_ADMIN_EMAIL,
    scopes: [...ALL_SCOPES],
    workspaceSlug: DEMO_WORKSPACE,
    expiresInMs: 30 * 24 * 3_600_000,
    label: 'demo token printed by npm start',
  });
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
  logger.log(`Admin pages: ${base}/admin (sign in as ${DEMO_ADMIN_EMAIL})`);
  // On lines of their own so scripts can pick them up; the secrets are never logged anywhere else.
  if (generatedPassword) console.log(`Demo admin password (${DEMO_ADMIN_EMAIL}, set DEMO_ADMIN_PASSWORD to choose one): ${generatedPassword}`);
  console.log(`Demo token: ${demo.token}`);
}

void bootstrap();
