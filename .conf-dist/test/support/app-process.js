import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RequestContext } from '../../src/context/request-context.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { ALL_SCOPES } from '../../src/identity/roles.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const ANSI = /\x1b\[[0-9;]*m/g;
export const TEST_ADMIN_PASSWORD = 'replica test password 1';
export async function startAppProcess(options) {
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
    const append = (chunk) => {
        output += chunk.toString('utf8').replace(ANSI, '');
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    // Never outlive the test process (a failed or timed-out test must not leave servers behind).
    const orphanGuard = () => child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    void exited.then(() => process.off('exit', orphanGuard));
    const started = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => fail(new Error(`${name} did not start within ${options.startTimeoutMs ?? 60_000} ms`)), options.startTimeoutMs ?? 60_000);
        let settled = false;
        const fail = (error) => {
            if (settled)
                return;
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
    const app = {
        name,
        pid: child.pid,
        baseUrl: started.baseUrl,
        mcpUrl: `${started.baseUrl}/mcp`,
        token: started.token,
        adminPassword: options.env?.DEMO_ADMIN_PASSWORD ?? TEST_ADMIN_PASSWORD,
        child,
        output: () => output,
        exited,
        kill: (signal) => {
            if (child.exitCode === null && child.signalCode === null)
                child.kill(signal);
        },
        stop: async (graceMs = 15_000) => {
            if (child.exitCode !== null || child.signalCode !== null)
                return;
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
export async function startReplicas(count, options) {
    const replicas = [];
    try {
        for (let n = 0; n < count; n++) {
            replicas.push(await startAppProcess({ ...options, name: `${options.name ?? 'replica'}-${String.fromCharCode(65 + n)}` }));
        }
        return replicas;
    }
    catch (error) {
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
export function needsRealPostgres() {
    if (SERVER_URL)
        return false;
    if (process.env.CI)
        throw new Error('CI must set DATABASE_URL: the multi-process tests need a real PostgreSQL');
    return 'needs a real PostgreSQL: set DATABASE_URL (the embedded PGlite runs one transaction at a time for all processes, so it cannot show replicas working side by side)';
}
/**
 * Mints a personal access token straight into the database at `databaseUrl` (as `npm run token`
 * does), for tests whose application runs in another process. Defaults: the demo admin, every
 * scope, workspace `demo`.
 */
export async function mintToken(databaseUrl, request = {}) {
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = databaseUrl;
    let prisma;
    try {
        prisma = new PrismaService();
    }
    finally {
        if (previous === undefined)
            delete process.env.DATABASE_URL;
        else
            process.env.DATABASE_URL = previous;
    }
    try {
        const minted = await RequestContext.run({ channel: 'system' }, () => new PersonalTokenService(prisma).mint({ email: 'admin@demo.test', scopes: [...ALL_SCOPES], workspaceSlug: 'demo', label: 'test', ...request }));
        return minted.token;
    }
    finally {
        await prisma.onModuleDestroy();
    }
}
//# sourceMappingURL=app-process.js.map