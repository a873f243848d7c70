import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ToolReply } from './tool-reply.js';
import { withResourceLinks } from './resource-links.js';

const ENVELOPE: CallToolResult = { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } };
const LINK = { uri: 'files://reports/7', name: 'report.csv', mimeType: 'text/csv', size: 1234 };

describe('resource links in a tool result', () => {
  it('ToolReply.success carries the data and the links, as a success', () => {
    const reply = ToolReply.success({ id: 7 }, { resourceLinks: [LINK] });
    assert.equal(reply.status, 'success');
    assert.equal(reply.ok, true);
    assert.deepEqual(reply.data, { id: 7 });
    assert.deepEqual(reply.errors, []);
    assert.deepEqual(reply.resourceLinks, [LINK]);
    assert.deepEqual(ToolReply.success('plain').resourceLinks, []);
  });

  it('adds one resource_link block per link after the envelope, keeping the rest of the result', () => {
    const second = { uri: 'files://reports/7/parts/2', name: 'report.csv' };
    const result = withResourceLinks(ENVELOPE, [LINK, second], '2025-11-25');
    assert.deepEqual(result, {
      content: [ENVELOPE.content[0], { type: 'resource_link', ...LINK }, { type: 'resource_link', ...second }],
      structuredContent: { ok: true },
    });
    assert.equal(ENVELOPE.content.length, 1, 'the given result is not changed');
    assert.equal(withResourceLinks(ENVELOPE, [LINK], '2026-07-28').content.length, 2);
    assert.equal(withResourceLinks(ENVELOPE, [LINK], '2025-06-18').content.length, 2, 'the revision that introduced the block');
  });

  it('leaves them out for a client of 2025-03-26, whose results cannot hold them, and when there are none', () => {
    assert.equal(withResourceLinks(ENVELOPE, [LINK], '2025-03-26'), ENVELOPE);
    assert.equal(withResourceLinks(ENVELOPE, [], '2025-11-25'), ENVELOPE);
  });
});
