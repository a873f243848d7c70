import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

/**
 * A fresh Nest app outside the repository, installed from packed tarballs: what the packages'
 * install tests (this package's and its adapters') share. The app is compiled with the
 * repository's tsc and runs as a user's would, without the test runner's hooks.
 */

/** The repository root (packages/nest-mcp/test/support/ is four levels below it). */
export const repo = resolve(import.meta.dirname, '..', '..', '..', '..');
export const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

/** A package at the version the repository runs (so npm's cache usually has it): `name@version`. */
export const atInstalledVersion = (name: string): string =>
  `${name}@${JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')).version}`;

/** The Nest app's own dependencies every fresh app needs beside the tarballs. */
export const NEST_APP_PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-validator',
  'class-transformer',
  'reflect-metadata',
  'rxjs',
  '@opentelemetry/api',
  '@types/express',
  '@types/node',
];

/**
 * An ESM app's package.json, tsconfig.json (the compiler set for decorators, as `nest new` sets it)
 * and main.ts, which mounts the MCP transport on the app's `AppModule` (src/app.module.ts, the
 * test's own) and prints `READY <MCP URL>` for `boot`.
 */
export function appScaffold(name: string): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name, private: true, type: 'module' }, null, 2),
    'tsconfig.json': JSON.stringify(
      {
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2023',
          types: ['node'],
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          strict: true,
          skipLibCheck: true,
          outDir: 'dist',
          rootDir: 'src',
        },
        include: ['src'],
      },
      null,
      2,
    ),
    'src/main.ts': MAIN_TS,
  };
}

const MAIN_TS = `
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { useMcpTransport } from '@nest-mcp/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { logger: ['log', 'warn', 'error'] });
useMcpTransport(app);
await app.listen(0, '127.0.0.1');
console.log('READY ' + (await app.getUrl()) + '/mcp');
`;

/** Writes `files` (path → text) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * The environment of a user's shell: without the test runner's NODE_OPTIONS (its SWC hooks and the
 * condition that resolves @nest-mcp/* to this repository's sources).
 */
export const USER_ENV = { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false' };

/** Runs a command as a user would; fails the test with its output when it fails. */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...USER_ENV, ...env } });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** `npm pack` of a workspace (its prepack builds it): the tarball's path and the files in it. */
export function pack(workspace: string, destination: string): { tarball: string; files: string[] } {
  const [packed] = JSON.parse(run('npm', ['pack', '-w', workspace, '--json', '--pack-destination', destination], repo)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return { tarball: join(destination, packed.filename), files: packed.files.map((file) => file.path) };
}

/** Installs the tarballs and packages into the app, from npm's cache when it has them. */
export function install(app: string, specs: string[]): void {
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs], app);
}

/**
 * Starts the compiled app (`dist/main.js`) and resolves with its MCP URL once it prints it: `ready`
 * captures it (default: the scaffold's `READY <MCP URL>` line). Everything it printed is kept in `output`.
 */
export function boot(
  cwd: string,
  output: string[],
  env: Record<string, string> = {},
  ready: RegExp = /READY (\S+)/,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd, env: { ...USER_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveBoot, reject) => {
    const collect = (chunk: Buffer) => {
      output.push(chunk.toString());
      const printed = ready.exec(output.join(''));
      if (printed) resolveBoot({ child, url: printed[1].replace('[::1]', '127.0.0.1') });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => reject(new Error(`the app exited (${code}) before it was ready:\n${output.join('')}`)));
  });
}

/** A loopback port free at this moment (for an app that listens on a port it is given, or a service that is down). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Stops a booted app (SIGTERM) and waits for it to exit. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/**
 * `prisma generate` in the app, from its schema folder. Generating never runs Prisma's native
 * schema engine, but the CLI wants one (it would download it, and this machine has no internet but
 * npm): a placeholder in `scratch` that fails if run.
 */
export function prismaGenerate(app: string, scratch: string): void {
  const engine = join(scratch, 'schema-engine-placeholder');
  writeFileSync(engine, '#!/bin/sh\nexit 1\n');
  chmodSync(engine, 0o755);
  run(process.execPath, [join('node_modules', 'prisma', 'build', 'index.js'), 'generate', '--schema', 'prisma/schema'], app, {
    PRISMA_SCHEMA_ENGINE_BINARY: engine,
    CHECKPOINT_DISABLE: '1',
  });
}

/** A database of the app's own, on the server DATABASE_URL names. */
export interface AppDatabase {
  url: string;
  /** A client connected to it, for the test's checks. */
  client: pg.Client;
  /** Closes the client and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates an empty database named `<prefix>_<pid>_<random>` and runs `sql` (each a script) on it:
 * where a page says `prisma migrate dev`, the tests create the same tables from SQL, since migrate
 * needs Prisma's native schema engine, which cannot be downloaded here.
 */
export async function appDatabase(prefix: string, sql: string[]): Promise<AppDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const onServer = async (statement: string) => {
    const server = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await server.connect();
    try {
      await server.query(statement);
    } finally {
      await server.end();
    }
  };
  await onServer(`CREATE DATABASE "${name}"`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  for (const script of sql) await client.query(script);
  return {
    url: url.toString(),
    client,
    async drop() {
      await client.end();
      await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
