/**
 * Mints a personal access token:
 *   npm run token -- --email <user> --scopes "<space separated>" [--for mcp|api|mcp,api] [--workspace <slug>] [--expires <30d>] [--label <text>]
 * `--for` says where the token is accepted: the MCP endpoint (`mcp`, the default: a token for an
 * agent), the REST API (`api`), or both.
 * The token is the last line of standard output; everything else goes to standard error. Works
 * against DATABASE_URL, or the embedded database (also while `npm start` is running on it).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { appConfigOrExit } from '../app-config.js';
import { RequestContext } from '../context/request-context.js';
import { seedDemo } from '../demo/demo-seed.js';
import { parseDuration } from '../identity/duration.js';
import { APP_ROLE_SCOPES } from '../app.scopes.js';
import { PersonalTokenService } from '../identity/personal-token.service.js';
import { SURFACES, type Surface } from '../identity/principal.js';
import { runCli, withCliDatabase } from './cli-database.js';

const USAGE =
  'usage: npm run token -- --email <user> --scopes "<space separated>" [--for mcp|api|mcp,api] [--workspace <slug>] [--expires <duration, e.g. 30d>] [--label <text>]';

async function main(): Promise<void> {
  // First: the settings, validated; a bad environment variable stops the CLI here, naming it.
  const config = appConfigOrExit();
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      scopes: { type: 'string' },
      workspace: { type: 'string' },
      expires: { type: 'string' },
      label: { type: 'string' },
      for: { type: 'string', default: 'mcp' },
    },
  });
  if (!values.email || !values.scopes) throw new Error(USAGE);
  const expiresInMs = values.expires ? parseDuration(values.expires) : undefined;
  const surfaces = values.for.split(',').map((surface) => surface.trim());
  if (!surfaces.every((surface): surface is Surface => (SURFACES as readonly string[]).includes(surface))) {
    throw new Error(`--for takes mcp, api or mcp,api (got "${values.for}")\n${USAGE}`);
  }

  await withCliDatabase(config, async (prisma, embedded) => {
    // The demo users exist only in demo mode (DEMO), as with `npm start`.
    if (embedded && config.demo.enabled) await seedDemo(prisma);
    const tokens = new PersonalTokenService(prisma, APP_ROLE_SCOPES);
    const minted = await RequestContext.run({ channel: 'system' }, () =>
      tokens.mint({
        email: values.email!,
        scopes: values.scopes!.split(/\s+/).filter(Boolean),
        workspaceSlug: values.workspace,
        expiresInMs,
        label: values.label ?? 'cli',
        surfaces,
      }),
    );
    console.error(
      `Token ${minted.id} for ${values.email}, on ${surfaces.join(' and ')}, scopes "${values.scopes}"${minted.expiresAt ? `, expires ${minted.expiresAt.toISOString()}` : ', no expiry'}`,
    );
    console.log(minted.token);
  });
}

runCli(main);
