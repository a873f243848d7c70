import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';

/**
 * Stream mode's first promise (docs: progress on the call's SSE answer): a tool that does its work
 * in steps reports them to a client that passed a progress token. billing_attachment_upload does,
 * for the official 1.x client with `onprogress`; a client that passed none gets a plain answer.
 */
describe('progress of an inline tool, in stream mode', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await withEnv({ MCP_STREAMS: 'true' }, () => startBillingApp());
    token = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
  });
  after(() => t.close());

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'progress-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer(token) } }));
    return client;
  }

  const file = { filename: 'receipt.txt', content_type: 'text/plain', content_base64: Buffer.from('paid in full').toString('base64') };

  it('billing_attachment_upload sends notifications/progress, increasing, before its result', async () => {
    const client = await connect();
    try {
      const reports: Progress[] = [];
      const result = await client.callTool({ name: 'billing_attachment_upload', arguments: file }, undefined, {
        onprogress: (progress) => reports.push(progress),
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.ok(reports.length >= 2, `progress reports: ${JSON.stringify(reports)}`);
      assert.deepEqual(
        reports.map((report) => report.progress),
        [...reports.map((report) => report.progress)].sort((a, b) => a - b),
      );
      assert.ok(reports.every((report) => report.total === 3 && typeof report.message === 'string'));
      assert.match(reports.at(-1)!.message!, /Storing receipt\.txt/);
    } finally {
      await client.close();
    }
  });

  it('without a progress token the same call sends none and answers as usual', async () => {
    const client = await connect();
    try {
      const notifications: unknown[] = [];
      client.fallbackNotificationHandler = async (notification) => {
        notifications.push(notification);
      };
      const result = await client.callTool({ name: 'billing_attachment_upload', arguments: file });
      assert.equal(result.isError, undefined);
      assert.deepEqual(notifications, []);
    } finally {
      await client.close();
    }
  });
});
