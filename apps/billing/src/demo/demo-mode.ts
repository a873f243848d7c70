import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { PersonalTokenService } from '../identity/personal-token.service.js';
import { ALL_SCOPES } from '../app.scopes.js';
import { DEMO_ADMIN_EMAIL, DEMO_WORKSPACE, seedDemo } from './demo-seed.js';
import { PrismaService } from '../database/prisma.service.js';
import { rawEnvironment } from '../config/environment.js';

/** The label that marks the token `npm start` prints: a new boot revokes every unrevoked one of them. */
export const DEMO_TOKEN_LABEL = 'demo token printed by npm start';
const DEMO_TOKEN_TTL_MS = 30 * 24 * 3_600_000;

/**
 * Demo mode (demo data, the demo admin's password and the printed demo token) from `DEMO`
 * (`true` | `false`). Unset: on for the embedded database and for a `DATABASE_URL` outside
 * production (the dev and test loop), off for `NODE_ENV=production` with a `DATABASE_URL`.
 * Read before the database is prepared (that sets DATABASE_URL for the embedded one).
 */
export function demoModeFromEnv(env: NodeJS.ProcessEnv = rawEnvironment()): boolean {
  const value = env.DEMO?.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value !== undefined && value !== '') {
    throw new Error(
      `DEMO must be "true" or "false" (got ${JSON.stringify(env.DEMO)}): it turns the demo data, password and token on or off`,
    );
  }
  return !(env.DATABASE_URL && env.NODE_ENV === 'production');
}

export interface DemoAccess {
  /** The admin-pages sign-in hint, e.g. `(sign in as admin@demo.test)`. */
  signInHint: string;
  /** Prints the secrets on lines of their own (scripts pick them up); they are logged nowhere else. */
  print(): void;
}

/**
 * Seeds the demo workspace, (re)sets the demo admin's panel password (DEMO_ADMIN_PASSWORD, or a
 * generated one), revokes the demo tokens earlier boots printed and mints the one this boot
 * prints, so a token copied from an old log stops working.
 */
export async function startDemo(app: INestApplication, env: NodeJS.ProcessEnv = rawEnvironment()): Promise<DemoAccess> {
  const prisma = app.get(PrismaService);
  const generatedPassword = env.DEMO_ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  await seedDemo(prisma, { billing: true, adminPassword: env.DEMO_ADMIN_PASSWORD || generatedPassword });
  const demo = await RequestContext.run({ channel: 'system' }, async () => {
    await prisma.client.accessToken.updateMany({
      where: { label: DEMO_TOKEN_LABEL, revokedAt: null, user: { email: DEMO_ADMIN_EMAIL } },
      data: { revokedAt: new Date() },
    });
    return app.get(PersonalTokenService).mint({
      email: DEMO_ADMIN_EMAIL,
      scopes: [...ALL_SCOPES],
      workspaceSlug: DEMO_WORKSPACE,
      expiresInMs: DEMO_TOKEN_TTL_MS,
      label: DEMO_TOKEN_LABEL,
    });
  });
  return {
    signInHint: `(sign in as ${DEMO_ADMIN_EMAIL})`,
    print: () => {
      if (generatedPassword)
        console.log(`  Demo admin password (${DEMO_ADMIN_EMAIL}, set DEMO_ADMIN_PASSWORD to choose one): ${generatedPassword}`);
      console.log(`  Demo token: ${demo.token}`);
    },
  };
}
