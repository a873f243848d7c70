import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { RequestContext } from '../../src/context/request-context.js';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { hashToken } from '../../src/identity/token-secret.js';
import { createTestDatabase, prismaOn, queryRows, type TestDatabase } from '../support/test-database.js';

/** The operator's identity commands: `npm run identity:link` and `npm run token`. */
const CLI = fileURLToPath(new URL('../../src/cli/link-identity.cli.js', import.meta.url));
const TOKEN_CLI = fileURLToPath(new URL('../../src/cli/token.cli.js', import.meta.url));
const ISSUER = 'https://idp.example.test';
const LINKING_ISSUER = 'https://idp-linking.example.test';

describe('the identity CLIs', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    const prisma = prismaOn(database.url);
    await RequestContext.run({ channel: 'system' }, () => seedDemo(prisma));
    await prisma.onApplicationShutdown();
  });
  after(() => database?.close());

  const linkAt = (issuer: string, ...args: string[]) =>
    spawnSync(process.execPath, [CLI, '--issuer', issuer, ...args], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: database.url },
    });
  const link = (...args: string[]) => linkAt(ISSUER, ...args);
  const linkedEmail = async (subject: string) =>
    (
      await queryRows<{ email: string; linked_by: string }>(
        database.url,
        'SELECT u.email, e.linked_by FROM external_identities e JOIN users u ON u.id = e.user_id WHERE e.issuer = $1 AND e.subject = $2',
        [ISSUER, subject],
      )
    )[0];

  it('links a subject to the user of an email, as the operator', async () => {
    const result = link('--subject', '00u-ana', '--email', 'Accountant@demo.test');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(await linkedEmail('00u-ana'), { email: 'accountant@demo.test', linked_by: 'operator' });
  });

  it('refuses to move a subject linked to someone else without --replace, and moves it with it', async () => {
    const refused = link('--subject', '00u-ana', '--email', 'viewer@demo.test');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /linked to another user .*--replace/);
    assert.equal((await linkedEmail('00u-ana'))?.email, 'accountant@demo.test');
    const moved = link('--subject', '00u-ana', '--email', 'viewer@demo.test', '--replace');
    assert.equal(moved.status, 0, moved.stderr);
    assert.equal((await linkedEmail('00u-ana'))?.email, 'viewer@demo.test');
  });

  it('names what is missing: an unknown email, or an argument', async () => {
    const unknown = link('--subject', '00u-x', '--email', 'nobody@demo.test');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No user has the email nobody@demo\.test/);
    const usage = link('--subject', '00u-x');
    assert.equal(usage.status, 1);
    assert.match(usage.stderr, /usage: npm run identity:link/);
    assert.equal(await linkedEmail('00u-x'), undefined);
  });

  const mint = (...args: string[]) =>
    spawnSync(process.execPath, [TOKEN_CLI, '--email', 'accountant@demo.test', '--scopes', 'billing:read', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: database.url },
    });
  const surfacesOf = async (token: string) =>
    (
      await queryRows<{ surfaces: string[] }>(database.url, 'SELECT surfaces FROM access_tokens WHERE token_hash = $1', [hashToken(token)])
    )[0]?.surfaces;

  it('npm run token mints for the MCP endpoint unless --for says otherwise', async () => {
    const cases: Array<[string[], string[]]> = [
      [[], ['mcp']],
      [['--for', 'api'], ['api']],
      [
        ['--for', 'mcp,api'],
        ['mcp', 'api'],
      ],
    ];
    for (const [args, surfaces] of cases) {
      const result = mint(...args);
      assert.equal(result.status, 0, result.stderr);
      const token = result.stdout.trim().split('\n').at(-1)!;
      assert.deepEqual(await surfacesOf(token), surfaces);
      assert.match(result.stderr, new RegExp(`on ${surfaces.join(' and ')}`));
    }
  });

  it('npm run token given scopes joined by commas says they are separated by spaces, and mints nothing', async () => {
    const before = await queryRows(database.url, 'SELECT id FROM access_tokens');
    const result = spawnSync(process.execPath, [TOKEN_CLI, '--email', 'accountant@demo.test', '--scopes', 'billing:read,billing:write'], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: database.url },
    });
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /Unknown scope\(s\): billing:read,billing:write\. Scopes are separated by spaces, not commas: --scopes "billing:read billing:write"/,
    );
    assert.equal((await queryRows(database.url, 'SELECT id FROM access_tokens')).length, before.length);
  });

  it('npm run token refuses a surface it does not know, with the usage', () => {
    const result = mint('--for', 'rest');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /--for takes mcp, api or mcp,api \(got "rest"\)/);
  });

  describe('npm run identity:link under one subject per user and issuer', () => {
    // An issuer of its own: the cases above already linked subjects to these users at ISSUER.
    const link = (...args: string[]) => linkAt(LINKING_ISSUER, ...args);
    const subjectsOf = async (email: string) =>
      (
        await queryRows<{ subject: string }>(
          database.url,
          'SELECT e.subject FROM external_identities e JOIN users u ON u.id = e.user_id WHERE e.issuer = $1 AND u.email = $2 ORDER BY 1',
          [LINKING_ISSUER, email],
        )
      ).map((row) => row.subject);

    it('refuses a second subject for a user without --replace, naming the one in the way and how to proceed (no stack trace)', async () => {
      const first = link('--subject', 'cli-one', '--email', 'viewer@demo.test');
      assert.equal(first.status, 0, first.stderr);
      const again = link('--subject', 'cli-one', '--email', 'viewer@demo.test');
      assert.equal(again.status, 0, `linking the same subject to the same user again is no change: ${again.stderr}`);

      const second = link('--subject', 'cli-two', '--email', 'viewer@demo.test');
      assert.equal(second.status, 1);
      assert.match(
        second.stderr,
        new RegExp(
          `viewer@demo\\.test already has another subject at ${LINKING_ISSUER.replaceAll('.', '\\.')} \\(cli-one\\).*add --replace to unlink it`,
        ),
      );
      assert.doesNotMatch(second.stderr, /^\s+at /m, 'a message, not a stack trace');
      assert.deepEqual(await subjectsOf('viewer@demo.test'), ['cli-one']);
    });

    it("--replace links the new subject and unlinks the user's other one at that issuer", async () => {
      const replaced = link('--subject', 'cli-two', '--email', 'viewer@demo.test', '--replace');
      assert.equal(replaced.status, 0, replaced.stderr);
      assert.match(replaced.stderr, /Unlinked cli-one at /);
      assert.match(replaced.stderr, /Linked cli-two at .* to viewer@demo\.test/);
      assert.deepEqual(await subjectsOf('viewer@demo.test'), ['cli-two']);
    });

    it("--replace moving a subject to a user who has another: the subject moves and the user's other one is unlinked", async () => {
      assert.equal(link('--subject', 'cli-acc', '--email', 'accountant@demo.test').status, 0);
      const refused = link('--subject', 'cli-two', '--email', 'accountant@demo.test');
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /linked to another user .*--replace/);
      const moved = link('--subject', 'cli-two', '--email', 'accountant@demo.test', '--replace');
      assert.equal(moved.status, 0, moved.stderr);
      assert.deepEqual(await subjectsOf('accountant@demo.test'), ['cli-two']);
      assert.deepEqual(await subjectsOf('viewer@demo.test'), []);
    });

    it('explains --replace in its usage', () => {
      const usage = link('--subject', 'cli-x');
      assert.equal(usage.status, 1);
      assert.match(usage.stderr, /usage: npm run identity:link[^]*A user has one subject per issuer\. --replace makes this link the one/);
    });
  });
});
