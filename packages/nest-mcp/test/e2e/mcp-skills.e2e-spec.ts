import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { McpModule, McpSkill } from '@nest-mcp/core';
import { callStateless, post, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { FIXTURE_SKILLS, LedgerModule, LedgerTools, ledgerApp } from '../fixtures/skills.fixture.js';
import { ordersApp } from '../fixtures/orders.fixture.js';
import { bootError } from '../support/boot-error.js';

const BOTH_SCOPES = 'ledger:read ledger:write';
const CLOSE = 'skill://ledger-close/SKILL.md';
const REVIEW = 'skill://ledger-review/SKILL.md';

const fileOf = (skill: string, path: string) => readFileSync(join(FIXTURE_SKILLS, skill, path));
const digest = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const manifestEntry = (skill: string, path: string) => {
  const bytes = fileOf(skill, path);
  return { uri: `skill://${skill}/${path}`, digest: digest(bytes), size: bytes.length };
};

/** A 2026-era request as a caller holding `scopes`. */
const as = (scopes: string) => ({ headers: { 'x-scopes': scopes } });
/** The same request in the handshake era (no session: the stateless default). */
const handshake = (url: string, method: string, params: Record<string, unknown>, scopes: string) =>
  post(url, { jsonrpc: '2.0', id: 1, method, params }, { 'mcp-protocol-version': '2025-11-25', 'x-scopes': scopes });

describe('skills (docs/skills.md)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ledgerApp());
  });
  after(() => t.close());

  it('declares the skills extension with directoryRead in server/discover and in initialize', async () => {
    const discover = await callStateless(t.mcpUrl, 'server/discover');
    assert.deepEqual(discover.body.result.capabilities.extensions['io.modelcontextprotocol/skills'], { directoryRead: true });
    const initialize = await post(t.mcpUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    assert.deepEqual(initialize.body.result.capabilities.extensions['io.modelcontextprotocol/skills'], { directoryRead: true });
  });

  it('lists each skill with its frontmatter verbatim and every file with its digest and size, SKILL.md first', async () => {
    const { body } = await callStateless(t.mcpUrl, 'skills/list', {}, as(BOTH_SCOPES));
    assert.deepEqual(body.result.skills, [
      {
        uri: CLOSE,
        frontmatter: {
          name: 'ledger-close',
          description: 'Close the ledger at month end. Use when asked to close a period.',
          metadata: { version: '1.2.0' },
        },
        resources: [
          manifestEntry('ledger-close', 'SKILL.md'),
          manifestEntry('ledger-close', 'references/checklist.md'),
          manifestEntry('ledger-close', 'references/templates/summary.md'),
        ],
      },
      {
        uri: REVIEW,
        frontmatter: { name: 'ledger-review', description: "Review the ledger's open entries. Use when asked what is still open." },
        resources: [manifestEntry('ledger-review', 'SKILL.md')],
      },
    ]);
    // Filtered per caller: never cached for others.
    assert.equal(body.result.ttlMs, 0);
    assert.equal(body.result.cacheScope, 'private');
  });

  it('shows a skill only to a caller whose scopes allow every tool it names', async () => {
    const names = async (scopes: string) =>
      (await callStateless(t.mcpUrl, 'skills/list', {}, as(scopes))).body.result.skills.map((s: { uri: string }) => s.uri);
    assert.deepEqual(await names(BOTH_SCOPES), [CLOSE, REVIEW]);
    assert.deepEqual(await names('ledger:read'), [REVIEW]);
    assert.deepEqual(await names('ledger:write'), []);
    assert.deepEqual(await names(''), []);
    const handshakeList = await handshake(t.mcpUrl, 'skills/list', {}, 'ledger:read');
    assert.deepEqual(
      handshakeList.body.result.skills.map((s: { uri: string }) => s.uri),
      [REVIEW],
    );
  });

  it('answers a hidden skill exactly as an unknown one, in skills/get, resources/read and resources/directory/read', async () => {
    const reader = as('ledger:read');
    const hidden = await callStateless(t.mcpUrl, 'skills/get', { uri: CLOSE }, reader);
    const unknown = await callStateless(t.mcpUrl, 'skills/get', { uri: 'skill://nothing/SKILL.md' }, reader);
    assert.equal(hidden.body.error.code, -32602);
    assert.equal(hidden.body.error.message, `Unknown skill: ${CLOSE}. Pass the uri of a skill's SKILL.md, as skills/list gives it.`);
    assert.equal(unknown.body.error.code, -32602);

    const read = await callStateless(t.mcpUrl, 'resources/read', { uri: CLOSE }, reader);
    assert.equal(read.body.error.code, -32602);
    assert.equal(read.body.error.message, `Unknown resource: ${CLOSE}`);
    const supporting = await callStateless(t.mcpUrl, 'resources/read', { uri: 'skill://ledger-close/references/checklist.md' }, reader);
    assert.equal(supporting.body.error.message, 'Unknown resource: skill://ledger-close/references/checklist.md');

    const directory = await callStateless(t.mcpUrl, 'resources/directory/read', { uri: 'skill://ledger-close' }, reader);
    assert.equal(directory.body.error.code, -32602);
    assert.match(directory.body.error.message, /^Unknown directory: skill:\/\/ledger-close\./);

    const listed = await callStateless(t.mcpUrl, 'resources/list', {}, reader);
    assert.deepEqual(
      listed.body.result.resources.map((r: { uri: string }) => r.uri),
      [REVIEW],
    );
  });

  it('gets one skill by its SKILL.md uri, the same entry as the list, in both eras', async () => {
    const list = (await callStateless(t.mcpUrl, 'skills/list', {}, as(BOTH_SCOPES))).body.result.skills;
    const stateless = await callStateless(t.mcpUrl, 'skills/get', { uri: CLOSE }, as(BOTH_SCOPES));
    assert.deepEqual(stateless.body.result.skill, list[0]);
    assert.equal(stateless.body.result.nextCursor, undefined);
    assert.equal(stateless.body.result.cacheScope, 'private');
    const older = await handshake(t.mcpUrl, 'skills/get', { uri: CLOSE }, BOTH_SCOPES);
    assert.deepEqual(older.body.result, { skill: list[0] });
  });

  it('answers skills/get with -32602 for a missing uri, a directory uri and a supporting file', async () => {
    for (const params of [{}, { uri: 'skill://ledger-close' }, { uri: 'skill://ledger-close/references/checklist.md' }]) {
      const { body } = await callStateless(t.mcpUrl, 'skills/get', params, as(BOTH_SCOPES));
      assert.equal(body.error.code, -32602, JSON.stringify(params));
    }
  });

  it('reads the skill files through resources/read: SKILL.md as text/markdown, byte for byte', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: CLOSE }, as(BOTH_SCOPES));
    assert.deepEqual(body.result.contents, [
      { uri: CLOSE, mimeType: 'text/markdown', text: fileOf('ledger-close', 'SKILL.md').toString('utf8') },
    ]);
    const template = await handshake(
      t.mcpUrl,
      'resources/read',
      { uri: 'skill://ledger-close/references/templates/summary.md' },
      BOTH_SCOPES,
    );
    assert.equal(template.body.result.contents[0].text, 'Closed {period}: {count} entries.\n');
  });

  it('lists each visible SKILL.md in resources/list with the frontmatter name and description', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/list', {}, as(BOTH_SCOPES));
    assert.deepEqual(body.result.resources, [
      {
        uri: CLOSE,
        name: 'ledger-close',
        description: 'Close the ledger at month end. Use when asked to close a period.',
        mimeType: 'text/markdown',
        size: fileOf('ledger-close', 'SKILL.md').length,
      },
      {
        uri: REVIEW,
        name: 'ledger-review',
        description: "Review the ledger's open entries. Use when asked what is still open.",
        mimeType: 'text/markdown',
        size: fileOf('ledger-review', 'SKILL.md').length,
      },
    ]);
  });

  it('reads a directory: its direct children, subdirectories as inode/directory, in both eras', async () => {
    const root = await callStateless(t.mcpUrl, 'resources/directory/read', { uri: 'skill://ledger-close' }, as(BOTH_SCOPES));
    assert.deepEqual(root.body.result.resources, [
      { uri: CLOSE, name: 'SKILL.md', mimeType: 'text/markdown' },
      { uri: 'skill://ledger-close/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    assert.equal(root.body.result.cacheScope, 'private');
    const references = await handshake(t.mcpUrl, 'resources/directory/read', { uri: 'skill://ledger-close/references' }, BOTH_SCOPES);
    assert.deepEqual(references.body.result, {
      resources: [
        { uri: 'skill://ledger-close/references/checklist.md', name: 'checklist.md', mimeType: 'text/markdown' },
        { uri: 'skill://ledger-close/references/templates', name: 'templates', mimeType: 'inode/directory' },
      ],
    });
  });

  it('answers a directory read of a file, an unknown directory or no uri with -32602', async () => {
    const file = await callStateless(t.mcpUrl, 'resources/directory/read', { uri: CLOSE }, as(BOTH_SCOPES));
    assert.equal(file.body.error.code, -32602);
    assert.equal(file.body.error.message, `${CLOSE} is a file, not a directory: read it with resources/read`);
    for (const params of [{ uri: 'skill://ledger-close/nothing' }, { uri: 'orders://status' }, {}]) {
      const { body } = await callStateless(t.mcpUrl, 'resources/directory/read', params, as(BOTH_SCOPES));
      assert.equal(body.error.code, -32602, JSON.stringify(params));
    }
  });
});

describe('skills, paged', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ledgerApp({ pageSize: 1 }));
  });
  after(() => t.close());

  it('pages skills/list and a directory read with nextCursor, an entry never split, and refuses a forged cursor', async () => {
    const first = await callStateless(t.mcpUrl, 'skills/list', {}, as(BOTH_SCOPES));
    assert.deepEqual(
      first.body.result.skills.map((s: { uri: string }) => s.uri),
      [CLOSE],
    );
    assert.equal(first.body.result.skills[0].resources.length, 3);
    const second = await callStateless(t.mcpUrl, 'skills/list', { cursor: first.body.result.nextCursor }, as(BOTH_SCOPES));
    assert.deepEqual(
      second.body.result.skills.map((s: { uri: string }) => s.uri),
      [REVIEW],
    );
    assert.equal(second.body.result.nextCursor, undefined);

    const page = await callStateless(t.mcpUrl, 'resources/directory/read', { uri: 'skill://ledger-close' }, as(BOTH_SCOPES));
    assert.equal(page.body.result.resources.length, 1);
    const next = await callStateless(
      t.mcpUrl,
      'resources/directory/read',
      { uri: 'skill://ledger-close', cursor: page.body.result.nextCursor },
      as(BOTH_SCOPES),
    );
    assert.deepEqual(next.body.result.resources[0].uri, 'skill://ledger-close/references');

    const forged = await callStateless(t.mcpUrl, 'skills/list', { cursor: 'nope' }, as(BOTH_SCOPES));
    assert.equal(forged.body.error.code, -32602);
  });
});

describe('a server without skills', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ordersApp());
  });
  after(() => t.close());

  it('declares no skills extension and knows none of its methods', async () => {
    const discover = await callStateless(t.mcpUrl, 'server/discover');
    assert.equal(discover.body.result.capabilities.extensions?.['io.modelcontextprotocol/skills'], undefined);
    for (const method of ['skills/list', 'skills/get', 'resources/directory/read']) {
      const { status, body } = await callStateless(t.mcpUrl, method, { uri: CLOSE });
      assert.equal(status, 404, method);
      assert.equal(body.error.code, -32601, method);
    }
  });
});

describe('skill declarations that fail the boot', () => {
  const root = mkdtempSync(join(tmpdir(), 'skills-boot-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  function appWith(directory: string, tools: string[]) {
    @McpSkill({ directory, tools })
    @Module({ providers: [LedgerTools] })
    class BrokenSkillModule {}
    @Module({ imports: [McpModule.forRoot({}), BrokenSkillModule] })
    class BrokenApp {}
    return BrokenApp;
  }

  it('names the module and the unknown tool', async () => {
    const message = await bootError(appWith(join(FIXTURE_SKILLS, 'ledger-review'), ['ledger_read', 'ledger_reed']));
    assert.equal(
      message,
      '@McpSkill on BrokenSkillModule (ledger-review): no tool is named "ledger_reed"; the skill can only name tools this server registers',
    );
  });

  it('names the folder without SKILL.md', async () => {
    const directory = join(root, 'empty-skill');
    mkdirSync(directory);
    assert.match(
      await bootError(appWith(directory, ['ledger_read'])),
      /^@McpSkill on BrokenSkillModule: .*empty-skill\/SKILL\.md does not exist/,
    );
  });

  it('names a frontmatter name that is not the folder name', async () => {
    const directory = join(root, 'renamed');
    mkdirSync(directory);
    writeFileSync(join(directory, 'SKILL.md'), '---\nname: ledger-review\ndescription: x\n---\n');
    assert.match(
      await bootError(appWith(directory, ['ledger_read'])),
      /frontmatter name "ledger-review" must equal the folder's name "renamed"/,
    );
  });

  it('refuses a skill that names no tool', async () => {
    assert.match(await bootError(appWith(join(FIXTURE_SKILLS, 'ledger-review'), [])), /"tools" must name the tools the skill teaches/);
  });

  it('refuses two skills of one name', async () => {
    @McpSkill({ directory: join(FIXTURE_SKILLS, 'ledger-review'), tools: ['ledger_read'] })
    @Module({})
    class AgainModule {}
    @Module({ imports: [McpModule.forRoot({}), LedgerModule, AgainModule] })
    class TwiceApp {}
    assert.match(
      await bootError(TwiceApp),
      /Duplicate MCP skill "ledger-review": declared by (LedgerModule|AgainModule) and by (LedgerModule|AgainModule)/,
    );
  });
});
