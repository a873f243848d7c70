import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callStateless } from '@nest-mcp/core/testing';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';

const SKILL = 'skill://month-end-close/SKILL.md';
const SKILL_FOLDER = join(import.meta.dirname, '..', '..', 'src', 'billing', 'skills', 'month-end-close');

/** The month-end-close skill (src/billing/skills) on the real application: shown by role, like the tools it names. */
describe('billing skill: month-end close (real database)', () => {
  let t: BillingTestApp;
  let accountant: string;
  let viewer: string;
  before(async () => {
    t = await startBillingApp();
    accountant = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
    // The same scopes on the token, but a viewer's role narrows them to billing:read: no payment, no export.
    viewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read', 'billing:write'] });
  });
  after(() => t?.close());

  const rpc = (token: string, method: string, params: Record<string, unknown> = {}) => callStateless(t.mcpUrl, method, params, { token });

  it('declares the skills extension', async () => {
    const { body } = await rpc(accountant, 'server/discover');
    assert.deepEqual(body.result.capabilities.extensions['io.modelcontextprotocol/skills'], { directoryRead: true });
  });

  it('shows the skill to an accountant, with its files, and serves SKILL.md as written', async () => {
    const list = await rpc(accountant, 'skills/list');
    assert.deepEqual(
      list.body.result.skills.map((skill: { uri: string; resources: Array<{ uri: string }> }) => [
        skill.uri,
        skill.resources.map((r) => r.uri),
      ]),
      [
        [
          SKILL,
          [SKILL, 'skill://month-end-close/references/reconciliation-checklist.md', 'skill://month-end-close/references/reminder-email.md'],
        ],
      ],
    );
    assert.equal(list.body.result.skills[0].frontmatter.metadata.version, '1.0.0');
    const read = await rpc(accountant, 'resources/read', { uri: SKILL });
    assert.equal(read.body.result.contents[0].text, readFileSync(join(SKILL_FOLDER, 'SKILL.md'), 'utf8'));
    const directory = await rpc(accountant, 'resources/directory/read', { uri: 'skill://month-end-close' });
    assert.deepEqual(
      directory.body.result.resources.map((r: { uri: string; mimeType: string }) => [r.uri, r.mimeType]),
      [
        [SKILL, 'text/markdown'],
        ['skill://month-end-close/references', 'inode/directory'],
      ],
    );
  });

  it('hides it from a viewer, whose role cannot register payments nor export: answered as an unknown skill', async () => {
    assert.deepEqual((await rpc(viewer, 'skills/list')).body.result.skills, []);
    const get = await rpc(viewer, 'skills/get', { uri: SKILL });
    assert.equal(get.body.error.code, -32602);
    assert.match(get.body.error.message, /^Unknown skill: skill:\/\/month-end-close\/SKILL\.md\./);
    const read = await rpc(viewer, 'resources/read', { uri: SKILL });
    assert.equal(read.body.error.code, -32602);
    const listed = await rpc(viewer, 'resources/list');
    assert.ok(!listed.body.result.resources.some((r: { uri: string }) => r.uri.startsWith('skill://')));
  });
});
