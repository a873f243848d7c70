import { Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { loadAppConfig } from '../../src/app-config.js';
import { AppModule } from '../../src/app.module.js';
import { APP_ROLE_SCOPES } from '../../src/app.scopes.js';
import { RequestContext } from '../../src/context/request-context.js';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { PersonalTokenService, type MintRequest } from '../../src/identity/personal-token.service.js';
import { declaredScopes, ROLE_SCOPES, type RoleScopes } from '../../src/identity/role-scopes.js';
import { createEmbeddedTestDatabase, createTestDatabase, type TestDatabase } from './test-database.js';
import { startTestApp, type TestApp } from './test-app.js';

export interface BillingTestApp extends TestApp {
  prisma: PrismaService;
  /** Mints a personal access token (defaults: the demo admin, every scope, workspace demo). */
  token(request?: Partial<MintRequest>): Promise<string>;
}

/**
 * The real application (optionally with test-only modules) on its own migrated database: a
 * fresh database on the PostgreSQL of DATABASE_URL, or an embedded one when it is unset. Its
 * settings are read from process.env when it boots: a test sets a variable before, as an operator would.
 */
export async function startBillingApp(...extra: Type<unknown>[]): Promise<BillingTestApp> {
  return startBillingAppOn(0, ...extra);
}

/** {@link startBillingApp} on a given port: for a test whose PUBLIC_URL must be known before the app starts. */
export async function startBillingAppOn(port: number, ...extra: Type<unknown>[]): Promise<BillingTestApp> {
  return startBillingAppWith(await createTestDatabase(), port, ...extra);
}

/** {@link startBillingApp} on the embedded database (PGlite), even when DATABASE_URL names a server. */
export async function startEmbeddedBillingApp(...extra: Type<unknown>[]): Promise<BillingTestApp> {
  return startBillingAppWith(await createEmbeddedTestDatabase(), 0, ...extra);
}

async function startBillingAppWith(database: TestDatabase, port: number, ...extra: Type<unknown>[]): Promise<BillingTestApp> {
  // For the test's own queries (process.env.DATABASE_URL); the application is given it explicitly.
  process.env.DATABASE_URL = database.url;

  @Module({ imports: [billingAppModule(database.url), ...extra] })
  class TestAppModule {}

  // A boot that fails (a boot check, a missing provider) rejects with its error, after closing
  // the database: left open, it would keep the test file's process alive until the runner's timeout.
  let t: TestApp | undefined;
  try {
    t = await startTestApp(TestAppModule, '/mcp', port);
    const prisma = t.app.get(PrismaService);
    await seedDemo(prisma);
    const tokens = t.app.get(PersonalTokenService);
    const scopes = declaredAppScopes(t.app);
    const app = t;
    return {
      ...app,
      prisma,
      token: (request = {}) => mintDemoToken(tokens, { scopes, ...request }),
      close: async () => {
        try {
          await app.close();
        } finally {
          await database.close();
        }
      },
    };
  } catch (error) {
    await t?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

/** `AppModule` with the settings of process.env as it is now, on the database at `databaseUrl`. */
export function billingAppModule(databaseUrl: string): DynamicModule {
  return AppModule.forRoot(loadAppConfig({ ...process.env, DATABASE_URL: databaseUrl }));
}

/**
 * Every scope the application declares: its role mapping (`app.scopes.ts`, `IdentityModule.forRoot({ roleScopes })`),
 * the list `ScopePolicy.declaredScopes()` gives the MCP layer. A scope added there is in the test tokens at once.
 */
export function declaredAppScopes(app: INestApplication): string[] {
  return declaredScopes(app.get<RoleScopes>(ROLE_SCOPES));
}

/**
 * A personal access token from the app's own service; defaults: the demo admin, every scope the
 * application declares (`APP_ROLE_SCOPES`; pass `scopes` for an application booted with another mapping),
 * workspace demo, accepted on both surfaces (tests drive MCP and REST with one token; a real
 * token is minted for one: see the channel tests in identity.e2e-spec.ts).
 */
export async function mintDemoToken(tokens: PersonalTokenService, request: Partial<MintRequest> = {}): Promise<string> {
  const minted = await RequestContext.run({ channel: 'system' }, () =>
    tokens.mint({
      email: 'admin@demo.test',
      scopes: declaredScopes(APP_ROLE_SCOPES),
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
