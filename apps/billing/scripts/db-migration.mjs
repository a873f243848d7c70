#!/usr/bin/env node
// Writes the next migration from the schema: `npm run db:migration -- <name>` creates
// prisma/migrations/<UTC timestamp>_<name>/migration.sql with the SQL that takes a database
// migrated with every existing migration to the schema in prisma/schema/ (nothing when they already agree).
//
// How, offline: Prisma 7's CLI diffs only through its native schema engine, which it downloads at
// first use (unreachable here and on CI). Prisma 6.19's CLI (the `prisma6` dev dependency) has the
// same engine compiled to WebAssembly, which reaches a database through a driver adapter:
//   prisma6 migrate diff --from-migrations prisma/migrations --to-schema-datamodel <schema> --script
// replays the migrations on a scratch database (its "shadow"), reads it back and diffs it with the
// schema. The scratch database is created on the PostgreSQL server of DATABASE_URL and dropped
// afterwards: never the database itself. The embedded PGlite cannot stand in: 6.19's wasm engine
// aborts ("RuntimeError: unreachable") while reading PGlite's catalog back, so a real server is needed.
// Two details the 6.19 CLI needs: `url` in the datasource block (a copy of the schema gets it), and
// PostgreSQL's one-byte "char" type read as text (@prisma/adapter-pg 7 does not map it; 6.19's
// engine reads pg_catalog columns of that type).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const schemaFolder = join(root, 'prisma', 'schema');
const name = process.argv[2];
if (!name || !/^[a-z0-9_]{1,60}$/.test(name)) {
  console.error('usage: npm run db:migration -- <name>   (lower-case letters, digits and _; e.g. add_ticket_priority)');
  process.exit(1);
}

const require = createRequire(join(root, 'package.json'));
let cli;
try {
  cli = require.resolve('prisma6/build/index.js');
} catch {
  console.error('The prisma6 dev dependency (prisma@6.19 under an alias) is missing: run `npm install`.');
  process.exit(1);
}

const cacheDir = join(root, 'node_modules', '.cache', 'prisma-offline');
mkdirSync(cacheDir, { recursive: true });
let sql;
try {
  const scratch = await scratchDatabase();
  try {
    sql = diff(scratch.url);
  } finally {
    await scratch.drop();
  }
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

if (/^\s*-- This is an empty migration\.\s*$/.test(sql)) {
  console.log('prisma/schema/ matches prisma/migrations: there is nothing to migrate.');
  process.exit(0);
}
const timestamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const folder = join(root, 'prisma', 'migrations', `${timestamp}_${name}`);
mkdirSync(folder);
writeFileSync(join(folder, 'migration.sql'), sql);
console.log(`Wrote ${relative(root, join(folder, 'migration.sql'))}. Read it, then:`);
console.log('  node scripts/prisma.mjs generate   # the client, if not done yet');
console.log('  npm run db:migrate                 # a DATABASE_URL database (npm start migrates the embedded one)');

/**
 * Runs the 6.19 CLI's diff against the scratch database; returns the SQL it printed. The schema is
 * a folder of .prisma files (the app's own and @nest-mcp/prisma's, a symlink into node_modules):
 * each is copied, read through its link, and the one with the datasource gets its `url`.
 */
function diff(url) {
  const schemaCopy = join(cacheDir, 'schema');
  rmSync(schemaCopy, { recursive: true, force: true });
  mkdirSync(schemaCopy);
  let withDatasource = 0;
  for (const file of readdirSync(schemaFolder).filter((name) => name.endsWith('.prisma'))) {
    const schema = readFileSync(join(schemaFolder, file), 'utf8');
    const withUrl = schema.replace(/(datasource\s+\w+\s*\{[^}]*provider\s*=\s*"postgresql")/, '$1\n  url      = env("DATABASE_URL")');
    if (withUrl !== schema) withDatasource++;
    writeFileSync(join(schemaCopy, file), withUrl);
  }
  if (withDatasource !== 1) throw new Error('prisma/schema/: no `datasource` block with provider "postgresql" found');
  const config = join(cacheDir, 'prisma6.config.ts');
  writeFileSync(config, configSource(schemaCopy));
  const placeholder = enginePlaceholder();
  const result = spawnSync(
    process.execPath,
    [
      cli,
      'migrate',
      'diff',
      '--config',
      config,
      '--from-migrations',
      join(root, 'prisma', 'migrations'),
      '--to-schema-datamodel',
      schemaCopy,
      '--script',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: url,
        CHECKPOINT_DISABLE: '1',
        // The wasm engine does the work; the CLI still looks for native engines it never runs here.
        PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
        PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
      },
    },
  );
  if (result.status !== 0) {
    throw new Error(`prisma migrate diff failed:\n${result.stderr || result.stdout}`);
  }
  return result.stdout.replace(/^Loaded Prisma config from .*\n+/m, '');
}

function configSource(schemaCopy) {
  const url = (specifier) => JSON.stringify(pathToFileURL(require.resolve(specifier)).href);
  return `// Written by scripts/db-migration.mjs for Prisma 6.19's CLI; regenerated on every run.
import { PrismaPg } from ${url('@prisma/adapter-pg')};
import pg from ${url('pg')};
import { defineConfig } from ${url('prisma6/config')};

const CHAR = 18;
const TEXT = 25;
/** Reports PostgreSQL's internal "char" columns as text, which @prisma/adapter-pg 7 can map. */
function charAsText(result) {
  for (const field of result?.fields ?? []) if (field.dataTypeID === CHAR) field.dataTypeID = TEXT;
  return result;
}
class CharAsTextClient extends pg.Client {
  query(...args) {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (error, result) => callback(error, result && charAsText(result));
    }
    const answer = super.query(...args);
    return answer && typeof answer.then === 'function' ? answer.then(charAsText) : answer;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: ${JSON.stringify(schemaCopy)},
  adapter: async () => new PrismaPg(new pg.Pool({ connectionString: process.env.DATABASE_URL, Client: CharAsTextClient, max: 1 })),
});
`;
}

function enginePlaceholder() {
  const file = join(cacheDir, 'engine-placeholder');
  if (!existsSync(file)) {
    writeFileSync(file, '#!/bin/sh\necho "Placeholder for a native Prisma engine (see scripts/db-migration.mjs)." >&2\nexit 1\n', {
      mode: 0o755,
    });
  }
  return file;
}

/** A database nobody else uses, on the server of DATABASE_URL. */
async function scratchDatabase() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    throw new Error(
      'Set DATABASE_URL to a PostgreSQL server (any database on it): a scratch database is created there for the diff ' +
        'and dropped afterwards. The embedded database cannot serve the diff (see scripts/db-migration.mjs).',
    );
  }
  const scratchName = `migration_scratch_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${scratchName}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${scratchName}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${scratchName}" WITH (FORCE)`);
      await client.end();
    },
  };
}
