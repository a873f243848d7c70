import 'reflect-metadata';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { appConfigOrExit } from './app-config.js';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { startDemo } from './demo/demo-mode.js';
import { prepareDatabase } from './database/prepare-database.js';
import { gracefulShutdown } from './health/graceful-shutdown.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity/identity.config.js';
import { installObservabilityLogger } from './observability/observability.logger.js';
import { printReadyBanner } from './ready-banner.js';

/** Without NEST_LOG_LEVEL: no debug lines (Nest's module and route listing is logged at debug). */
const DEFAULT_LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log'];

async function bootstrap(): Promise<void> {
  // First: every setting, validated; a bad variable stops the boot here, naming it, before anything starts.
  const config = appConfigOrExit();
  const { format } = installObservabilityLogger(config.observability.logFormat);
  const logger = new Logger('Bootstrap');
  let stopping = false;

  // A fresh DATABASE_URL gets the migrations too (idempotent); DATABASE_MIGRATE=false leaves them to a deploy step.
  const database = await prepareDatabase({
    url: config.database.url,
    logger: (line) => logger.log(line),
    migrate: config.database.migrate ? true : undefined,
  });
  // The application uses the database prepared: DATABASE_URL's, or the embedded one.
  const app = await NestFactory.create(
    AppModule.forRoot({ ...config, database: { ...config.database, url: database.url } }),
    config.server.nestLogLevel ? {} : { logger: DEFAULT_LOG_LEVELS },
  );
  configureApp(app);
  // Demo data, password and token only in demo mode (DEMO; see demo-mode.ts for the default).
  const demo = config.demo.enabled ? await startDemo(app, config.demo) : undefined;
  await app.listen(config.server.port, config.server.host);
  // On SIGINT/SIGTERM: readiness turns 503, the server stops accepting connections, requests in
  // flight finish (SHUTDOWN_TIMEOUT_MS, default 10 s), Nest closes (the database pool with it),
  // then the embedded database stops. A second signal exits at once.
  const shutdown = gracefulShutdown(app, {
    delayMs: config.health.shutdownDelayMs,
    timeoutMs: config.health.shutdownTimeoutMs,
    afterClose: () => database.close(),
  });
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
  if (!demo) logger.log('Demo mode off (DEMO=true to seed the demo workspace and print a demo token)');
  printReadyBanner({
    format,
    lines: [
      ['Database', database.embedded ? 'embedded PostgreSQL (PGlite, .data/pglite)' : 'DATABASE_URL'],
      ['REST API docs', config.server.apiDocs === 'off' ? 'off (API_DOCS=public or authenticated to serve them)' : `${base}/docs`],
      ['Admin pages', `${base}/admin${demo ? ` ${demo.signInHint}` : ''}`],
      ['MCP endpoint', `${base}/mcp`],
    ],
    secrets: () => demo?.print(),
  });
}

void bootstrap();
