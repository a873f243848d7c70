import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RequestContext } from '../../src/context/request-context.js';
import { prismaOn } from './test-database.js';
import { APP_ROLE_SCOPES } from '../../src/app.scopes.js';
import { PersonalTokenService, type MintRequest } from '../../src/identity/personal-token.service.js';
import { declaredScopes } from '../../src/identity/role-scopes.js';

/**
 * The real application in a process of its own: the compiled `src/main.js` (what `npm start`
 * runs), on a free loopback port, against the database named by `databaseUrl`. For tests that
 * need what one process cannot show: several replicas, `kill -9`, SIGTERM.
 *
 * `main.js` seeds the demo workspace and prints `Demo token: …` (demo mode is on for NODE_ENV=test):
 * that token (the demo admin, every scope, workspace `demo`) is `token`. Each boot revokes the
 * demo token of the boots before it, so with replicas only the last one's token works. Start
 * replicas of one database one after the other (the demo seed is not meant to run twice at once).
 */
export interface AppProcess {
  name: string;
  pid: number;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  mcpUrl: string;
  /** The demo admin's token this process printed ('' when demo mode is off). */
  token: string;
  /** The demo admin's panel password (DEMO_ADMIN_PASSWORD). */
  adminPassword: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (no colours). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal (e.g. `SIGKILL` for `kill -9`, `SIGTERM` for a graceful stop). */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface AppProcessOptions {
  databaseUrl: string;
  name?: string;
  /** More environment (MCP_STATE_SECRET, SHUTDOWN_TIMEOUT_MS, …). */
  env?: Record<string, string>;
  /** How long to wait for the process to print its token. Default 60 s. */
  startTimeoutMs?: number;
  /** Wait for the `Demo token:` line (default). `false` for a process in which demo mode is off. */
  expectDemoToken?: boolean;
}

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const ANSI = /\x1b\[[0-9;]*m/g;
export const TEST_ADMIN_PASSWORD = 'replica test password 1';

export async function startAppProcess(options: AppProcessOptions): Promise<AppProcess> {
  const name = options.name ?? 'app';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      NO_COLOR: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      DATABASE_MIGRATE: 'false',
      DEMO_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8').replace(ANSI, '');
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Never outlive the test process (a failed or timed-out test must not leave servers behind).
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  void exited.then(() => process.off('exit', orphanGuard));

  const started = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${name} did not start within ${options.startTimeoutMs ?? 60_000} ms`)),
      options.startTimeoutMs ?? 60_000,
    );
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.off('data', look);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- ${name} output ---\n${output}`));
    };
    const look = () => {
      const endpoint = /MCP endpoint: (http:\/\/\S+)\/mcp/.exec(output);
      const token = /Demo token: (\S+)/.exec(output);
      const ready = options.expectDemoToken === false ? /Demo mode off/.test(output) : !!token;
      if (endpoint && ready && !settled) {
        settled = true;
        clearTimeout(timer);
        child.stdout.off('data', look);
        resolve({ baseUrl: endpoint[1], token: token?.[1] ?? '' });
      }
    };
    child.stdout.on('data', look);
    void exited.then(({ code, signal }) => fail(new Error(`${name} exited during start (code ${code}, signal ${signal})`)));
  });

  const app: AppProcess = {
    name,
    pid: child.pid!,
    baseUrl: started.baseUrl,
    mcpUrl: `${started.baseUrl}/mcp`,
    token: started.token,
    adminPassword: options.env?.DEMO_ADMIN_PASSWORD ?? TEST_ADMIN_PASSWORD,
    child,
    output: () => output,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  return app;
}

/**
 * Starts replicas one after the other on one database (the demo seed runs in each; at once, two
 * seeds could both insert the demo data). Stops the ones started if one fails.
 */
export async function startReplicas(count: number, options: AppProcessOptions): Promise<AppProcess[]> {
  const replicas: AppProcess[] = [];
  try {
    for (let n = 0; n < count; n++) {
      replicas.push(await startAppProcess({ ...options, name: `${options.name ?? 'replica'}-${String.fromCharCode(65 + n)}` }));
    }
    return replicas;
  } catch (error) {
    await Promise.all(replicas.map((replica) => replica.stop()));
    throw error;
  }
}

/** DATABASE_URL as the test runner gave it (tests may set process.env.DATABASE_URL later). */
const SERVER_URL = process.env.DATABASE_URL || undefined;

/**
 * `false` when a test that needs a real PostgreSQL (several processes on one database) can run,
 * else the reason to skip it (for `describe(name, { skip: needsRealPostgres() })`). Never skips on
 * CI: there a missing DATABASE_URL is an error.
 */
export function needsRealPostgres(): false | string {
  if (SERVER_URL) return false;
  if (process.env.CI) throw new Error('CI must set DATABASE_URL: the multi-process tests need a real PostgreSQL');
  return 'needs a real PostgreSQL: set DATABASE_URL (the embedded PGlite runs one transaction at a time for all processes, so it cannot show replicas working side by side)';
}

/**
 * Mints a personal access token straight into the database at `databaseUrl` (as `npm run token`
 * does), for tests whose application runs in another process. Defaults: the demo admin, every
 * scope the application declares (its role mapping, `APP_ROLE_SCOPES`), workspace `demo`.
 */
export async function mintToken(databaseUrl: string, request: Partial<MintRequest> = {}): Promise<string> {
  const prisma = prismaOn(databaseUrl);
  try {
    const minted = await RequestContext.run({ channel: 'system' }, () =>
      new PersonalTokenService(prisma, APP_ROLE_SCOPES).mint({
        email: 'admin@demo.test',
        scopes: declaredScopes(APP_ROLE_SCOPES),
        workspaceSlug: 'demo',
        label: 'test',
        surfaces: ['mcp', 'api'],
        ...request,
      }),
    );
    return minted.token;
  } finally {
    await prisma.onApplicationShutdown();
  }
}
