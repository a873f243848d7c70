import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { booleanEnv } from '../config/boolean-variable.js';
import { RequestContext } from '../context/request-context.js';
import { PersonalTokenService } from '../identity/personal-token.service.js';
import { declaredScopes, ROLE_SCOPES, type RoleScopes } from '../identity/role-scopes.js';
import { hashToken } from '../identity/token-secret.js';
import { DEMO_ADMIN_EMAIL, DEMO_WORKSPACE, seedDemo } from './demo-seed.js';
import { PrismaService } from '../database/prisma.service.js';

/** The label that marks the token `npm start` prints: a new boot revokes every unrevoked one of them. */
export const DEMO_TOKEN_LABEL = 'demo token printed by npm start';
const DEMO_TOKEN_TTL_MS = 30 * 24 * 3_600_000;
/** A kept demo token is minted again when it has less than this left. */
const DEMO_TOKEN_MIN_REMAINING_MS = 24 * 3_600_000;

/** The variable `npm run start:dev` sets: see {@link DemoConfig.accessFile}. */
export const DEMO_ACCESS_FILE_ENV = 'DEMO_ACCESS_FILE';

/**
 * Demo mode's settings (`AppConfig.demo`), validated at boot. Not a provider: demo mode runs in
 * `main.ts` around the application (`startDemo`), and the token CLI reads it from its own config.
 */
export interface DemoConfig {
  /** `DEMO`: see {@link demoModeFromEnv}. */
  readonly enabled: boolean;
  /**
   * `DEMO_ACCESS_FILE`, set by `npm run start:dev` (scripts/start-dev.mjs) for the servers its
   * watcher restarts: the file (`.data/demo-access.json`) where the demo password and token are
   * kept, so that a restart after a save reuses them instead of revoking the token a connected
   * client uses and printing a new password.
   */
  readonly accessFile?: string;
  /** `DEMO_ADMIN_PASSWORD`: the demo admin's panel password; unset, a generated one. */
  readonly adminPassword?: string;
}

/** `DEMO`, `DEMO_ACCESS_FILE`, `DEMO_ADMIN_PASSWORD`. */
export function demoConfigFromEnv(env: NodeJS.ProcessEnv): DemoConfig {
  return {
    enabled: demoModeFromEnv(env),
    accessFile: env[DEMO_ACCESS_FILE_ENV] || undefined,
    adminPassword: env.DEMO_ADMIN_PASSWORD || undefined,
  };
}

/** What `DEMO_ACCESS_FILE` holds. */
interface KeptDemoAccess {
  /** The generated password (absent when DEMO_ADMIN_PASSWORD chose it: never written down then). */
  password?: string;
  token?: string;
}

/**
 * Demo mode (demo data, the demo admin's password and the printed demo token) from `DEMO`, an
 * on/off value (`booleanEnv`: anything else stops the boot). Unset or blank: on for the embedded
 * database and for a `DATABASE_URL` outside production (the dev and test loop), off for
 * `NODE_ENV=production` with a `DATABASE_URL`.
 * Decided from the environment as set: the embedded database's URL is never in it.
 */
export function demoModeFromEnv(env: NodeJS.ProcessEnv): boolean {
  return booleanEnv('DEMO', env.DEMO, !(env.DATABASE_URL && env.NODE_ENV === 'production'));
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
 * prints, so a token copied from an old log stops working. The token carries every scope the
 * application declares (its role mapping).
 *
 * With DEMO_ACCESS_FILE (`npm run start:dev`), the generated password and the token of the last
 * boot are read from that file and kept while valid: the token when it is unrevoked, has a day
 * left and still carries every declared scope; otherwise a new one is minted and written there.
 */
export async function startDemo(app: INestApplication, demo: DemoConfig): Promise<DemoAccess> {
  const prisma = app.get(PrismaService);
  const scopes = declaredScopes(app.get<RoleScopes>(ROLE_SCOPES));
  const { accessFile } = demo;
  const kept = accessFile ? readKept(accessFile) : {};
  const generatedPassword = demo.adminPassword ? undefined : kept.password || randomBytes(12).toString('base64url');
  // With history (two more years of invoices): exporting the demo workspace (billing_statement_export) is real long work.
  await seedDemo(prisma, { billing: true, history: true, adminPassword: demo.adminPassword || generatedPassword });
  const token = await RequestContext.run({ channel: 'system' }, async () => {
    const reusable = kept.token ? await keptTokenId(prisma, kept.token, scopes) : undefined;
    await prisma.client.accessToken.updateMany({
      where: {
        label: DEMO_TOKEN_LABEL,
        revokedAt: null,
        user: { email: DEMO_ADMIN_EMAIL },
        ...(reusable ? { id: { not: reusable } } : {}),
      },
      data: { revokedAt: new Date() },
    });
    if (reusable) return kept.token!;
    const minted = await app.get(PersonalTokenService).mint({
      email: DEMO_ADMIN_EMAIL,
      scopes,
      workspaceSlug: DEMO_WORKSPACE,
      expiresInMs: DEMO_TOKEN_TTL_MS,
      label: DEMO_TOKEN_LABEL,
    });
    return minted.token;
  });
  if (accessFile) writeKept(accessFile, { password: generatedPassword, token });
  return {
    signInHint: `(sign in as ${DEMO_ADMIN_EMAIL})`,
    print: () => {
      if (generatedPassword)
        console.log(`  Demo admin password (${DEMO_ADMIN_EMAIL}, set DEMO_ADMIN_PASSWORD to choose one): ${generatedPassword}`);
      console.log(`  Demo token: ${token}`);
    },
  };
}

/** The id of the kept demo token when it may be printed again: the demo admin's, unrevoked, a day left, every declared scope. */
async function keptTokenId(prisma: PrismaService, token: string, scopes: string[]): Promise<string | undefined> {
  const row = await prisma.client.accessToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!row || row.label !== DEMO_TOKEN_LABEL || row.revokedAt || row.user.email !== DEMO_ADMIN_EMAIL) return undefined;
  if (row.expiresAt && row.expiresAt.getTime() - Date.now() < DEMO_TOKEN_MIN_REMAINING_MS) return undefined;
  return scopes.every((scope) => row.scopes.includes(scope)) ? row.id : undefined;
}

function readKept(file: string): KeptDemoAccess {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as KeptDemoAccess;
    return {
      password: typeof value.password === 'string' ? value.password : undefined,
      token: typeof value.token === 'string' ? value.token : undefined,
    };
  } catch {
    return {}; // none yet, or unreadable: a new password and token
  }
}

/** Readable by its owner only: it holds a live credential. */
function writeKept(file: string, access: KeptDemoAccess): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(access, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // a file that existed keeps its mode otherwise
}
