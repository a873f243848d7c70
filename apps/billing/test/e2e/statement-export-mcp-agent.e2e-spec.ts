/**
 * An agent that has only MCP: its token is issued for the MCP endpoint, so the REST download of
 * the export (download_path) refuses it. With the official 2.x client it exports a statement,
 * follows the queued job to completion, reads the file through the resource links of the answer
 * (resources/read, part by part) and gets exactly the bytes a REST client with an API token
 * downloads.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Prisma } from '../../src/generated/prisma/client.js';
import { STATEMENT_COLUMNS } from '../../src/billing/statements/statement-csv.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

const PERIOD = { from: '2024-01-01', to: '2024-12-31' };
/** More than a megabyte of CSV: a file of several parts. */
const SEEDED = { customers: 30, invoices: 12_000 };

type Content = { type: string; text?: string; uri?: string; name?: string; mimeType?: string; size?: number };
type ToolResult = { content: Content[]; structuredContent?: any; isError?: boolean };

describe('an MCP-only agent exports a statement and reads it over MCP (official 2.x client, real database)', () => {
  let t: BillingTestApp;

  before(async () => {
    t = await startBillingApp();
    await seed(t, (await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } })).id);
  });
  after(() => t?.close());

  it('billing_statement_export → billing_job_get until completed → resources/read of each resource_link → the same bytes as the REST download', async () => {
    const scopes = ['billing:read', 'billing:write'];
    const agentToken = await t.token({ email: 'accountant@demo.test', scopes, surfaces: ['mcp'] });
    const apiToken = await t.token({ email: 'accountant@demo.test', scopes, surfaces: ['api'] });
    const client = new Client({ name: 'statement-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer(agentToken) } }));
    try {
      // The export is long work: a queued job (this client follows no MCP tasks).
      const queued = envelopeOf(await client.callTool({ name: 'billing_statement_export', arguments: PERIOD }));
      assert.equal(queued.status, 'queued', JSON.stringify(queued));
      let answer: ToolResult | undefined;
      for (const started = Date.now(); Date.now() - started < 60_000; await sleep(100)) {
        answer = await client.callTool({ name: 'billing_job_get', arguments: { job_id: queued.data.jobId } });
        if (answer.structuredContent.data.status !== 'working') break;
      }
      const job = answer!.structuredContent.data;
      assert.equal(job.status, 'completed', JSON.stringify(job));
      const data = job.result.data;
      assert.equal(job.result.ok, true);
      assert.ok(data.parts > 1, `a file of several parts (${data.parts})`);

      // REST is not this agent's: its token is refused there, whatever the path says.
      const refused = await fetch(`${t.baseUrl}${data.download_path}`, { headers: bearer(agentToken) });
      assert.equal(refused.status, 403);
      assert.equal(((await refused.json()) as { error: string }).error, 'wrong_channel');

      // What the answer links to: each part, in order, as text/csv; read and joined, they are the file.
      const links = answer!.content.filter((block) => block.type === 'resource_link');
      assert.equal(links.length, data.parts);
      let csv = '';
      for (const [index, link] of links.entries()) {
        assert.equal(link.uri, `${data.resource_uri}/parts/${index + 1}`);
        assert.equal(link.mimeType, 'text/csv');
        const { contents } = await client.readResource({ uri: link.uri });
        assert.equal(contents.length, 1);
        const [part] = contents as Array<{ uri: string; mimeType?: string; text?: string }>;
        assert.equal(part.mimeType, 'text/csv');
        assert.equal(Buffer.byteLength(part.text!), link.size);
        csv += part.text;
      }
      const bytes = Buffer.from(csv, 'utf8');
      assert.equal(bytes.length, data.size_bytes);
      assert.equal(createHash('sha256').update(bytes).digest('hex'), data.sha256);
      assert.ok(csv.startsWith(`${STATEMENT_COLUMNS.join(',')}\r\n`));
      assert.equal(csv.split('\r\n').length - 2, data.rows, 'a header, a line per row, and the last line end');

      // A REST client with an API token downloads the very same bytes.
      const downloaded = await fetch(`${t.baseUrl}${data.download_path}`, { headers: bearer(apiToken) });
      assert.equal(downloaded.status, 200);
      assert.ok(Buffer.from(await downloaded.arrayBuffer()).equals(bytes));
    } finally {
      await client.close();
    }
  });
});

function envelopeOf(result: ToolResult): any {
  return JSON.parse(result.content[0].text!);
}

/** A year of invoices for a few customers, a payment for every other one. */
async function seed(t: BillingTestApp, workspaceId: string): Promise<void> {
  await t.prisma.sql(Prisma.sql`
    INSERT INTO customers (id, workspace_id, name, email, created_via, updated_via, updated_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, 'Agent Customer ' || g, 'agent-' || g || '@customers.test', 'system', 'system', now()
    FROM generate_series(1, ${SEEDED.customers}::int) g`);
  await t.prisma.sql(Prisma.sql`
    WITH c AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS slot FROM customers WHERE workspace_id = ${workspaceId}::uuid AND email LIKE 'agent-%')
    INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor,
                          created_via, updated_via, updated_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, c.id, 'AG-' || lpad(g::text, 6, '0'),
           (CASE WHEN g % 2 = 0 THEN 'paid' ELSE 'sent' END)::"InvoiceStatus", 'MXN',
           date '2024-01-01' + (g % 366), date '2024-01-01' + (g % 366) + 30, 1000 + g, CASE WHEN g % 2 = 0 THEN 1000 + g ELSE 0 END,
           'system', 'system', now()
    FROM generate_series(1, ${SEEDED.invoices}::int) g JOIN c ON c.slot = g % ${SEEDED.customers}::int`);
  await t.prisma.sql(Prisma.sql`
    INSERT INTO payments (id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference, refunded_minor,
                          created_via, updated_via, updated_at)
    SELECT gen_random_uuid(), workspace_id, id, paid_minor, currency, 'transfer', issue_date + interval '13 hours', 'Ref; =' || number, 0,
           'system', 'system', now()
    FROM invoices WHERE workspace_id = ${workspaceId}::uuid AND number LIKE 'AG-%' AND paid_minor > 0`);
}
