// Cases 1, 4 and 6: the real application (AppModule, configured as `npm start` configures it) on the
// PostgreSQL named by DATABASE_URL, which the bench runner created and migrated. Seeds the demo
// workspace with billing data, gathers the planner's statistics (ANALYZE) and mints an admin
// personal token, as src/main.ts does.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadAppConfig } from '../../apps/billing/src/app-config.js';
import { AppModule } from '../../apps/billing/src/app.module.js';
import { configureApp } from '../../apps/billing/src/app.setup.js';
import { DEMO_WORKSPACE, seedDemo } from '../../apps/billing/src/demo/demo-seed.js';
import { PrismaService } from '../../apps/billing/src/database/prisma.service.js';
import { PersonalTokenService } from '../../apps/billing/src/identity/personal-token.service.js';
import { ALL_SCOPES } from '../../apps/billing/src/app.scopes.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

try {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must name the bench database');
  // The load is thousands of requests per second with one token: lift the rate limits so that no
  // answer is a 429, while the guard still runs (its cost is part of what is measured).
  process.env.RATE_LIMIT_TOKEN_PER_MINUTE ||= '1000000000';
  process.env.RATE_LIMIT_WORKSPACE_PER_MINUTE ||= '1000000000';
  const app = await NestFactory.create(AppModule.forRoot(loadAppConfig()), { logger: ['error', 'warn'] });
  configureApp(app);
  const prisma = app.get(PrismaService);
  await seedDemo(prisma, { billing: true });
  // The planner's statistics of the seeded tables, as autovacuum would gather them within a minute
  // on a production server; a server without autovacuum (CI's) would otherwise plan every query of
  // the run on empty statistics (case 6's page then sorted every invoice of the workspace).
  await prisma.client.$executeRawUnsafe('ANALYZE');
  const { token } = await app.get(PersonalTokenService).mint({
    email: 'admin@demo.test',
    scopes: [...ALL_SCOPES],
    workspaceSlug: DEMO_WORKSPACE,
    expiresInMs: 3_600_000,
    label: 'npm run bench',
    // The bench drives the same handlers over REST and MCP with one token.
    surfaces: ['mcp', 'api'],
  });
  await app.listen(PORT, HOST);
  exitOnSignal();
  announceReady(app.getHttpServer().address(), { server: 'billing app (AppModule)', token });
} catch (error) {
  fail(error);
}
