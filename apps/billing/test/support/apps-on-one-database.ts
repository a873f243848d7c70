import { seedDemo } from '../../src/demo/demo-seed.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { PersonalTokenService, type MintRequest } from '../../src/identity/personal-token.service.js';
import { billingAppModule, mintDemoToken } from './billing-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * Several instances of the real application on ONE migrated, seeded database, each booted with
 * its own environment (the way replicas, or differently configured deployments, share a
 * database). Tokens minted once are valid on every instance.
 */
export interface AppsOnOneDatabase {
  /** Boots one more instance; `env` is applied while it boots (a value `undefined` unsets the variable). */
  start(env?: Record<string, string | undefined>): Promise<TestApp>;
  /** Mints a personal access token (defaults: the demo admin, every scope, workspace demo). */
  token(request?: Partial<MintRequest>): Promise<string>;
  prisma(): PrismaService;
  /** Closes every instance, then the database. */
  close(): Promise<void>;
}

export async function appsOnOneDatabase(): Promise<AppsOnOneDatabase> {
  const database: TestDatabase = await createTestDatabase();
  // For the test's own queries (process.env.DATABASE_URL); each application is given it explicitly.
  process.env.DATABASE_URL = database.url;

  const apps: TestApp[] = [];
  const start = async (env: Record<string, string | undefined> = {}): Promise<TestApp> => {
    const app = await withEnv(env, () => startTestApp(billingAppModule(database.url)));
    if (!apps.length) await seedDemo(app.app.get(PrismaService));
    apps.push(app);
    return app;
  };
  const first = () => {
    if (!apps.length) throw new Error('start() an instance first');
    return apps[0].app;
  };
  return {
    start,
    prisma: () => first().get(PrismaService),
    token: (request = {}) => mintDemoToken(first().get(PersonalTokenService), request),
    close: async () => {
      for (const app of apps.reverse()) await app.close();
      await database.close();
    },
  };
}

/** Runs `work` with `env` applied to process.env, then puts the previous values back. */
export async function withEnv<T>(env: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(env);
  try {
    return await work();
  } finally {
    apply(previous);
  }
}
