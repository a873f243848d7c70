import { Module, type Type } from '@nestjs/common';
import { AppModule } from '../../src/app.module.js';
import { RequestContext } from '../../src/context/request-context.js';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { PersonalTokenService, type MintRequest } from '../../src/identity/personal-token.service.js';
import { createTestDatabase } from './test-database.js';
import { startTestApp, type TestApp } from './test-app.js';

export interface BillingTestApp extends TestApp {
  prisma: PrismaService;
  /** Mints a personal access token (defaults: the demo admin, every scope, workspace demo). */
  token(request?: Partial<MintRequest>): Promise<string>;
}

/**
 * The real application (optionally with test-only modules) on its own migrated database: a
 * fresh database on the PostgreSQL of DATABASE_URL, or an embedded one when it is unset.
 */
export async function startBillingApp(...extra: Type<unknown>[]): Promise<BillingTestApp> {
  return startBillingAppOn(0, ...extra);
}

/** {@link startBillingApp} on a given port: for a test whose PUBLIC_URL must be known before the app starts. */
export async function startBillingAppOn(port: number, ...extra: Type<unknown>[]): Promise<BillingTestApp> {
  const database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;

  @Module({ imports: [AppModule, ...extra] })
  class TestAppModule {}

  const t = await startTestApp(TestAppModule, '/mcp', port);
  const prisma = t.app.get(PrismaService);
  await seedDemo(prisma);
  const tokens = t.app.get(PersonalTokenService);
  return {
    ...t,
    prisma,
    token: (request = {}) => mintDemoToken(tokens, request),
    close: async () => {
      await t.close();
      await database.close();
    },
  };
}

/**
 * A personal access token from the app's own service; defaults: the demo admin, every scope,
 * workspace demo, accepted on both surfaces (tests drive MCP and REST with one token; a real
 * token is minted for one: see the channel tests in identity.e2e-spec.ts).
 */
export async function mintDemoToken(tokens: PersonalTokenService, request: Partial<MintRequest> = {}): Promise<string> {
  const minted = await RequestContext.run({ channel: 'system' }, () =>
    tokens.mint({
      email: 'admin@demo.test',
      scopes: ['billing:read', 'billing:write', 'billing:admin'],
      workspaceSlug: 'demo',
      surfaces: ['mcp', 'api'],
      ...request,
    }),
  );
  return minted.token;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
