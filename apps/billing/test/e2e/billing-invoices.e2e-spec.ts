import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RequestContext } from '../../src/context/request-context.js';
import { callStateless, callTool } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { restCall } from '../support/rest-http.js';
import { withClient } from '../support/test-database.js';

/** Invoices over REST and MCP on the real application and a real database. */

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const TEMPLATE = 'billing://invoices/{id}';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
/** A real PostgreSQL server (DATABASE_URL as the run started), not the single-session embedded one. */
const REAL_SERVER = !!process.env.DATABASE_URL;

describe('billing invoices: REST routes and MCP tools (real database)', () => {
  let t: BillingTestApp;
  let admin: string;
  let accountant: string;
  let acme: { id: string; email: string };
  let globex: { id: string; email: string };
  let bulk: { id: string; email: string };
  const bulkIds: string[] = [];

  const rest = (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    restCall(t, token, method, path, body, headers);

  const rpc = (token: string, method: string, params: Record<string, unknown>) => callStateless(t.mcpUrl, method, params, { token });

  /** tools/call → the JSON envelope of the result (plus the raw result). */
  const tool = async (token: string, name: string, args: Record<string, unknown>) => {
    const { status, body, envelope } = await callTool(t.mcpUrl, name, args, { token });
    assert.equal(status, 200, JSON.stringify(body));
    assert.ok(body.result, JSON.stringify(body));
    return { envelope, result: body.result };
  };

  const ok = async (token: string, name: string, args: Record<string, unknown>) => {
    const { envelope } = await tool(token, name, args);
    assert.equal(envelope.ok, true, JSON.stringify(envelope.errors));
    return envelope.data;
  };

  const failure = async (token: string, name: string, args: Record<string, unknown>) => {
    const { envelope, result } = await tool(token, name, args);
    assert.equal(result.isError, true, JSON.stringify(envelope));
    assert.equal(envelope.ok, false);
    return envelope.errors;
  };

  /**
   * A role refusal over MCP (docs/protocol.md, "Refusals"): no HTTP error and no scope challenge (a
   * new token would not help), but a tool result with `isError: true` naming what the role lacks.
   */
  const refusedByRole = async (token: string, name: string, args: Record<string, unknown>, scope: string) => {
    const { status, headers, body, envelope, isError } = await callTool(t.mcpUrl, name, args, { token });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(isError, true, JSON.stringify(body));
    assert.equal(headers.get('www-authenticate'), null);
    assert.equal(envelope.ok, false);
    assert.deepEqual(envelope.errors, [
      {
        code: 'forbidden_by_role',
        message: `Your role does not allow ${scope} in this workspace; ask a workspace admin`,
        retryable: false,
      },
    ]);
    return envelope;
  };

  const invoiceArgs = (customerId: string, extra: Record<string, unknown> = {}) => ({
    customer_id: customerId,
    currency: 'MXN',
    issue_date: day(-2),
    due_date: day(28),
    lines: [
      { description: 'Consulting', quantity: 3, unit_price_minor: 125_000 },
      { description: 'Travel', quantity: 1, unit_price_minor: 40_050 },
    ],
    ...extra,
  });

  const createRest = async (customerId: string, extra: Record<string, unknown> = {}, token = admin) => {
    const { status, body } = await rest(token, 'POST', '/v1/invoices', invoiceArgs(customerId, extra));
    assert.equal(status, 201, JSON.stringify(body));
    return body;
  };

  /** Writes what other modules own (payments) straight to the database, as the system. */
  const asSystem = <T>(work: () => Promise<T>) => RequestContext.run({ channel: 'system' }, work);

  before(async () => {
    t = await startBillingApp();
    admin = await t.token();
    accountant = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write', 'billing:admin'] });
    const customer = async (name: string, email: string) => {
      const { status, body } = await rest(admin, 'POST', '/v1/customers', { name, email });
      assert.equal(status, 201);
      return { id: body.id as string, email };
    };
    acme = await customer('Acme Logistics', 'billing@acme.test');
    globex = await customer('Globex', 'ap@globex.test');
    bulk = await customer('Bulk Buyer', 'bulk@bulk.test');
    // 26 invoices over 9 issue dates (ties on the date exercise the id tie-breaker), due far ahead.
    for (let i = 0; i < 26; i++) {
      const issue = `2025-0${1 + (i % 9)}-15`;
      const created = await createRest(bulk.id, {
        issue_date: issue,
        due_date: '2099-12-31',
        lines: [{ description: `Item ${i}`, quantity: 1, unit_price_minor: 1000 + i }],
      });
      bulkIds.push(created.id);
    }
  });
  after(() => t.close());

  describe('tools/list', () => {
    const listed = async (token: string) => (await rpc(token, 'tools/list', {})).body.result.tools as Array<Record<string, any>>;

    it('publishes the three invoice tools with annotations, input and output schemas, and prompt-style descriptions', async () => {
      const tools = await listed(admin);
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      const search = byName.billing_invoices_search;
      const create = byName.billing_invoice_create;
      const cancel = byName.billing_invoice_cancel;
      assert.ok(search && create && cancel);
      assert.equal(
        tools.filter((tool) => tool.name.startsWith('billing_invoice')).length,
        3,
        'fewer tools than routes: no get/update tool',
      );
      assert.deepEqual(search.annotations, {
        title: 'Search invoices',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      assert.equal(create.annotations.readOnlyHint, false);
      assert.equal(create.annotations.destructiveHint, false);
      assert.equal(cancel.annotations.destructiveHint, true);
      for (const tool of [search, create, cancel]) {
        assert.match(tool.description, /^When to use: .+ Never use for: .+ Side effects: .+ Success criteria: .+ Fallback: .+$/s);
        assert.equal(tool.outputSchema.type, 'object');
        assert.equal(tool.inputSchema.additionalProperties, false);
      }
      const input = search.inputSchema.properties;
      assert.deepEqual([input.limit.type, input.limit.minimum, input.limit.maximum], ['integer', 1, 50]);
      assert.equal(input.fields.type, 'array');
      assert.ok(input.fields.items.enum.includes('balance_minor'));
      assert.deepEqual(input.status.enum, ['draft', 'sent', 'overdue', 'paid', 'cancelled']);
      assert.equal(input.issued_from.format, 'date');
      assert.equal(search.inputSchema.required, undefined);
      const lines = create.inputSchema.properties.lines;
      assert.deepEqual([lines.type, lines.minItems, lines.maxItems, lines.items.type], ['array', 1, 100, 'object']);
      assert.deepEqual(lines.items.required, ['description', 'quantity', 'unit_price_minor']);
      assert.equal(lines.items.properties.quantity.type, 'integer');
      assert.deepEqual(create.inputSchema.required, ['customer_id', 'currency', 'due_date', 'lines']);
      assert.equal(create.inputSchema.properties.currency.pattern, '^[A-Z]{3}$');
      assert.match(create.inputSchema.properties.idempotency_key.description, /Reuse the same key when you retry this call/);
      assert.deepEqual(cancel.inputSchema.required?.sort(), ['invoice_id', 'reason']);
      const data = search.outputSchema.properties.data;
      assert.deepEqual(data.properties.next_cursor.type, ['string', 'null']);
      assert.deepEqual(data.properties.items.items.required, ['id']);
      assert.deepEqual(create.outputSchema.properties.data.properties.notes.type, ['string', 'null']);
    });

    it('shows an accountant search and create but not cancel (billing:admin)', async () => {
      const names = (await listed(accountant)).map((tool) => tool.name);
      assert.ok(names.includes('billing_invoices_search') && names.includes('billing_invoice_create'));
      assert.ok(!names.includes('billing_invoice_cancel'));
      const viewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read', 'billing:write'] });
      const viewerNames = (await listed(viewer)).map((tool) => tool.name);
      assert.ok(viewerNames.includes('billing_invoices_search') && !viewerNames.includes('billing_invoice_create'));
    });
  });

  describe('billing_invoice_create / POST /v1/invoices', () => {
    it('creates an invoice over MCP with a verifiable id and the next number, stamped created_via=mcp', async () => {
      const data = await ok(
        admin,
        'billing_invoice_create',
        invoiceArgs(acme.id, { notes: 'PO 4411', idempotency_key: 'create-acme-0001' }),
      );
      assert.match(data.id, /^[0-9a-f-]{36}$/);
      assert.match(data.number, /^INV-\d{6}$/);
      assert.equal(data.status, 'sent');
      assert.equal(data.total_minor, 3 * 125_000 + 40_050);
      assert.equal(data.balance_minor, data.total_minor);
      assert.equal(data.paid_minor, 0);
      assert.deepEqual(data.customer, { id: acme.id, name: 'Acme Logistics', email: acme.email });
      assert.deepEqual(
        data.lines.map((l: any) => [l.position, l.amount_minor]),
        [
          [1, 375_000],
          [2, 40_050],
        ],
      );
      assert.deepEqual(data.payments, { count: 0, received_minor: 0, refunded_minor: 0, last_paid_at: null });
      assert.equal(data.created_via, 'mcp');
      const row = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: data.id }, include: { lines: true } });
      assert.equal(row.number, data.number);
      assert.equal(row.createdVia, 'mcp');
      assert.ok(row.lines.every((line) => line.createdVia === 'mcp'));
      // The id is real: REST reads the same invoice.
      const read = await rest(admin, 'GET', `/v1/invoices/${data.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.number, data.number);
    });

    it('answers REST and MCP with the same invoice for the same arguments (created_via=api over REST)', async () => {
      const args = invoiceArgs(globex.id, { notes: 'same', status: 'draft' });
      const viaMcp = await ok(admin, 'billing_invoice_create', args);
      const viaRest = await createRest(globex.id, { notes: 'same', status: 'draft' });
      assert.equal(viaRest.created_via, 'api');
      assert.equal(viaMcp.created_via, 'mcp');
      const strip = ({ id, number, created_via, updated_via, created_at, ...rest }: Record<string, unknown>) => rest;
      assert.deepEqual(strip(viaRest), strip(viaMcp));
      assert.equal(viaRest.status, 'draft');
      assert.equal(Number(viaRest.number.slice(4)), Number(viaMcp.number.slice(4)) + 1, 'numbers are sequential');
      const row = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: viaRest.id } });
      assert.deepEqual([row.createdVia, row.updatedVia], ['api', 'api']);
    });

    it('returns the same data in structuredContent as in the text envelope', async () => {
      const { envelope, result } = await tool(admin, 'billing_invoice_create', invoiceArgs(acme.id));
      assert.deepEqual(result.structuredContent, envelope);
      assert.equal(envelope.toolName, 'billing_invoice_create');
      assert.equal(envelope.safety, 'mutation');
    });

    it('defaults the issue date to today and accepts a due date of today', async () => {
      const { issue_date, ...args } = invoiceArgs(acme.id, { due_date: day(0) });
      const data = await ok(admin, 'billing_invoice_create', args);
      assert.equal(data.issue_date, day(0));
      assert.equal(data.status, 'sent');
    });

    it('numbers invoices sequentially per workspace, also when created concurrently', async () => {
      const created = await Promise.all(Array.from({ length: 6 }, () => createRest(globex.id)));
      const numbers = created.map((invoice) => Number(invoice.number.slice(4))).sort((a, b) => a - b);
      assert.equal(new Set(numbers).size, 6);
      assert.equal(numbers[5] - numbers[0], 5, `contiguous: ${numbers}`);
      const all = await t.prisma.client.invoice.findMany({ select: { number: true } });
      const max = Math.max(...all.map((row) => Number(row.number.slice(4))));
      assert.equal(max, all.length, 'INV-000001…INV-<count>, no gaps');
    });

    it(
      'retries once with a fresh number when another writer takes the number meanwhile',
      { skip: !REAL_SERVER && 'needs concurrent sessions (real PostgreSQL)' },
      async () => {
        // Another session inserts the next number and holds it uncommitted: the create computes the
        // same number, waits on the unique index, gets P2002 on commit, and retries with the next one.
        const demo = await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
        const last = Math.max(
          ...(await t.prisma.client.invoice.findMany({ where: { workspaceId: demo.id }, select: { number: true } })).map((row) =>
            Number(row.number.slice(4)),
          ),
        );
        const taken = `INV-${String(last + 1).padStart(6, '0')}`;
        await withClient(process.env.DATABASE_URL!, async (other) => {
          await other.query('BEGIN');
          await other.query(
            `INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, created_via, updated_via, updated_at)
           VALUES (gen_random_uuid(), $1, $2, $3, 'draft', 'MXN', current_date, current_date, 0, 'system', 'system', now())`,
            [demo.id, acme.id, taken],
          );
          const pending = createRest(acme.id);
          await new Promise((resolve) => setTimeout(resolve, 400));
          await other.query('COMMIT');
          const created = await pending;
          assert.equal(created.number, `INV-${String(last + 2).padStart(6, '0')}`);
        });
      },
    );

    const invalid: Array<[string, Record<string, unknown>, string, RegExp]> = [
      ['a date in the wrong format', { issue_date: '03/01/2026' }, 'issue_date', /`issue_date` must be a date in YYYY-MM-DD format/],
      ['a day that does not exist', { due_date: '2026-02-30' }, 'due_date', /not a real calendar day/],
      [
        'a due date before the issue date',
        { issue_date: '2026-03-10', due_date: '2026-03-01' },
        'due_date',
        /`due_date` \(2026-03-01\) must be on or after issue_date \(2026-03-10\)/,
      ],
      [
        'a string where lines must be an array of objects',
        { lines: 'three consulting hours at 1250' },
        'lines',
        /`lines` must be an array/,
      ],
      [
        'JSON in a string instead of objects',
        { lines: ['{"description":"x","quantity":1,"unit_price_minor":1}'] },
        'lines[0]',
        /nested property|object/,
      ],
      ['an empty lines array', { lines: [] }, 'lines', /`lines` must contain at least 1 lines/],
      [
        'a quantity of zero',
        { lines: [{ description: 'x', quantity: 0, unit_price_minor: 100 }] },
        'lines[0].quantity',
        /`lines\[0\]\.quantity` must not be less than 1/,
      ],
      ['a decimal amount', { lines: [{ description: 'x', quantity: 1, unit_price_minor: 12.5 }] }, 'lines[0].unit_price_minor', /integer/],
      ['a lowercase currency', { currency: 'mxn' }, 'currency', /three capital letters/],
      ['a customer id that is not a UUID', { customer_id: 'acme' }, 'customer_id', /UUID/],
      ['an idempotency key too short', { idempotency_key: 'abc' }, 'idempotency_key', /longer than or equal to 8/],
      ['an undeclared argument', { amount: 100 }, 'amount', /not an accepted argument/],
    ];
    for (const [label, override, field, message] of invalid) {
      it(`refuses ${label} with an actionable error on \`${field}\` (MCP and REST)`, async () => {
        const before = await t.prisma.client.invoice.count();
        const errors = await failure(admin, 'billing_invoice_create', invoiceArgs(acme.id, override));
        const error = errors.find((e) => e.field === field);
        assert.ok(error, JSON.stringify(errors));
        assert.equal(error.code, 'invalid_argument');
        assert.match(error.message, message);
        assert.match(error.message, /call billing_invoice_create again/);
        const viaRest = await rest(admin, 'POST', '/v1/invoices', invoiceArgs(acme.id, override));
        assert.equal(viaRest.status, 400);
        assert.ok(
          (viaRest.body.message as string[]).some((m) => m.includes(field.split(/[.[]/)[0])),
          JSON.stringify(viaRest.body),
        );
        assert.equal(await t.prisma.client.invoice.count(), before, 'nothing was written');
      });
    }

    const shapes: Array<[string, Record<string, unknown>, string, string]> = [
      ['without its required lines', { lines: undefined }, 'lines', '`lines` is missing'],
      ['with a string where a line object belongs', { lines: ['three consulting hours'] }, 'lines[0]', '`lines[0]` must be an object'],
      [
        'with a line missing its quantity',
        { lines: [{ description: 'x', unit_price_minor: 100 }] },
        'lines[0].quantity',
        '`lines[0].quantity` is missing',
      ],
    ];
    for (const [label, override, field, message] of shapes) {
      it(`refuses an invoice ${label} in the same words over REST (400) and MCP, and writes nothing`, async () => {
        const before = await t.prisma.client.invoice.count();
        const viaRest = await rest(admin, 'POST', '/v1/invoices', invoiceArgs(acme.id, override));
        assert.equal(viaRest.status, 400, JSON.stringify(viaRest.body));
        assert.deepEqual(viaRest.body.message, [message]);
        assert.deepEqual(viaRest.body.errors, [{ code: 'invalid_argument', field, message, retryable: false }]);
        const errors = await failure(admin, 'billing_invoice_create', invoiceArgs(acme.id, override));
        assert.deepEqual(
          errors.map((error) => error.field),
          [field],
        );
        assert.ok(errors[0].message.startsWith(`${message}.`), errors[0].message);
        assert.equal(await t.prisma.client.invoice.count(), before, 'nothing was written');
      });
    }

    it('refuses a customer that does not exist with not_found and what to do', async () => {
      const errors = await failure(admin, 'billing_invoice_create', invoiceArgs(MISSING_ID));
      assert.equal(errors[0].code, 'not_found');
      assert.match(errors[0].message, new RegExp(`Customer ${MISSING_ID} was not found in this workspace; .*billing_customer_create`));
      const viaRest = await rest(admin, 'POST', '/v1/invoices', invoiceArgs(MISSING_ID));
      assert.equal(viaRest.status, 404);
      assert.equal(viaRest.body.code, 'not_found');
    });

    it('refuses lines whose total exceeds the largest amount, in English and Spanish', async () => {
      const errors = await failure(
        admin,
        'billing_invoice_create',
        invoiceArgs(acme.id, {
          lines: [{ description: 'big', quantity: 1_000_000, unit_price_minor: 1_000_000 }],
        }),
      );
      assert.equal(errors[0].code, 'invoice_total_too_large');
      assert.equal(errors[0].field, 'lines');
      assert.match(errors[0].message, /split them into several invoices/);
      assert.match(errors[0].message_es ?? '', /repártelas en varias facturas/);
    });

    it('is refused to a viewer (a tool error over MCP, 403 over REST) and writes nothing', async () => {
      const viewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read', 'billing:write'] });
      await refusedByRole(viewer, 'billing_invoice_create', invoiceArgs(acme.id, { notes: 'viewer' }), 'billing:write');
      const viaRest = await rest(viewer, 'POST', '/v1/invoices', invoiceArgs(acme.id, { notes: 'viewer' }));
      assert.equal(viaRest.status, 403);
      assert.equal(await t.prisma.client.invoice.count({ where: { notes: 'viewer' } }), 0);
    });
  });

  describe('billing_invoices_search / GET /v1/invoices', () => {
    it('walks every page with next_cursor: all matches once, in order, nothing skipped', async () => {
      const seen: Array<{ id: string; issue_date: string }> = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const data = await ok(admin, 'billing_invoices_search', { customer_email: bulk.email, limit: 7, ...(cursor ? { cursor } : {}) });
        assert.equal(data.total_matching, 26);
        assert.ok(data.items.length <= 7);
        seen.push(...data.items);
        cursor = data.next_cursor ?? undefined;
        pages++;
      } while (cursor && pages < 10);
      assert.equal(pages, 4);
      assert.equal(seen.length, 26);
      assert.equal(new Set(seen.map((item) => item.id)).size, 26, 'no duplicates');
      assert.deepEqual(new Set(seen.map((item) => item.id)), new Set(bulkIds), 'no omissions');
      const sorted = [...seen].sort((a, b) =>
        a.issue_date === b.issue_date ? (a.id < b.id ? -1 : 1) : a.issue_date > b.issue_date ? -1 : 1,
      );
      assert.deepEqual(
        seen.map((item) => item.id),
        sorted.map((item) => item.id),
        'issue_date desc, then id',
      );
    });

    it('walks the same pages over REST with the cursor as a query parameter', async () => {
      const ids: string[] = [];
      let cursor = '';
      for (let page = 0; page < 10; page++) {
        const { status, body } = await rest(
          admin,
          'GET',
          `/v1/invoices?customer_id=${bulk.id}&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        assert.equal(status, 200, JSON.stringify(body));
        ids.push(...body.items.map((item: { id: string }) => item.id));
        if (!body.next_cursor) break;
        cursor = body.next_cursor;
      }
      assert.equal(ids.length, 26);
      assert.deepEqual(new Set(ids), new Set(bulkIds));
    });

    it('returns trimmed items and the same answer over REST and MCP', async () => {
      const viaMcp = await ok(admin, 'billing_invoices_search', {
        customer_id: bulk.id,
        limit: 5,
        issued_from: '2025-03-01',
        issued_to: '2025-06-30',
      });
      const viaRest = await rest(admin, 'GET', `/v1/invoices?customer_id=${bulk.id}&limit=5&issued_from=2025-03-01&issued_to=2025-06-30`);
      assert.equal(viaRest.status, 200);
      assert.deepEqual(viaRest.body, viaMcp);
      assert.equal(viaMcp.total_matching, 12);
      assert.ok(viaMcp.items.every((item: any) => item.issue_date >= '2025-03-01' && item.issue_date <= '2025-06-30'));
      assert.deepEqual(Object.keys(viaMcp.items[0]).sort(), [
        'balance_minor',
        'currency',
        'customer',
        'due_date',
        'id',
        'issue_date',
        'number',
        'paid_minor',
        'status',
        'total_minor',
      ]);
      assert.deepEqual(viaMcp.items[0].customer, { id: bulk.id, name: 'Bulk Buyer', email: bulk.email });
    });

    it('returns only the requested fields (plus id), as an array over MCP or a list over REST', async () => {
      const data = await ok(admin, 'billing_invoices_search', {
        customer_email: 'BULK@bulk.test',
        fields: ['number', 'balance_minor'],
        limit: 3,
      });
      assert.equal(data.items.length, 3);
      for (const item of data.items) assert.deepEqual(Object.keys(item).sort(), ['balance_minor', 'id', 'number']);
      const viaRest = await rest(admin, 'GET', `/v1/invoices?customer_email=bulk@bulk.test&fields=number,balance_minor&limit=3`);
      assert.deepEqual(viaRest.body, data);
      const repeated = await rest(admin, 'GET', `/v1/invoices?customer_email=bulk@bulk.test&fields=number&fields=balance_minor&limit=3`);
      assert.deepEqual(repeated.body, data);
    });

    it('adds a hint naming unused filters when far more invoices match than a few pages hold', async () => {
      const many = await ok(admin, 'billing_invoices_search', { customer_email: bulk.email, limit: 5 });
      assert.equal(many.total_matching, 26);
      assert.match(
        many.hint,
        /^26 invoices match and this page shows 5; add status, an issue-date range \(issued_from\/issued_to\) or due_before to narrow them/,
      );
      const few = await ok(admin, 'billing_invoices_search', { customer_email: bulk.email, limit: 20 });
      assert.equal(few.hint, undefined, '26 fit in two pages of 20: no hint');
      const none = await ok(admin, 'billing_invoices_search', { customer_email: bulk.email, status: 'draft' });
      assert.deepEqual([none.items, none.total_matching, none.next_cursor], [[], 0, null]);
      assert.match(none.hint, /No invoice matches; remove or widen status, customer_email/);
    });

    it('filters by status, with overdue computed from the due date', async () => {
      const overdue = await createRest(acme.id, { issue_date: day(-40), due_date: day(-10) });
      const current = await createRest(acme.id, { issue_date: day(-1), due_date: day(5) });
      assert.equal(overdue.status, 'overdue');
      assert.equal(current.status, 'sent');
      const stored = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: overdue.id } });
      assert.equal(stored.status, 'sent', 'overdue is computed on read, not stored');
      const ids = async (args: Record<string, unknown>) =>
        (await ok(admin, 'billing_invoices_search', { customer_id: acme.id, limit: 50, ...args })).items as Array<{
          id: string;
          status: string;
        }>;
      const overdueItems = await ids({ status: 'overdue' });
      assert.ok(overdueItems.some((item) => item.id === overdue.id));
      assert.ok(overdueItems.every((item) => item.status === 'overdue'));
      const sentItems = await ids({ status: 'sent' });
      assert.ok(sentItems.some((item) => item.id === current.id) && !sentItems.some((item) => item.id === overdue.id));
      const dueSoon = await ids({ due_before: day(0) });
      assert.deepEqual(
        dueSoon.map((item) => item.id),
        [overdue.id],
      );
      // Moving the due date later (PATCH) makes it current again.
      const patched = await rest(admin, 'PATCH', `/v1/invoices/${overdue.id}`, { due_date: day(3) });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.status, 'sent');
    });

    const invalid: Array<[string, Record<string, unknown>, string, string, RegExp]> = [
      ['a limit of 0', { limit: 0 }, 'limit=0', 'limit', /must not be less than 1/],
      ['a limit above 50', { limit: 51 }, 'limit=51', 'limit', /must not be greater than 50/],
      ['a limit that is not a number', { limit: 'many' }, 'limit=many', 'limit', /integer/],
      ['an impossible date', { issued_from: '2026-13-01' }, 'issued_from=2026-13-01', 'issued_from', /not a real calendar day/],
      ['a slashed date', { due_before: '2026/01/01' }, 'due_before=2026/01/01', 'due_before', /YYYY-MM-DD/],
      [
        'a range that ends before it starts',
        { issued_from: '2026-02-01', issued_to: '2026-01-01' },
        'issued_from=2026-02-01&issued_to=2026-01-01',
        'issued_to',
        /must be on or after issued_from/,
      ],
      [
        'an unknown status',
        { status: 'late' },
        'status=late',
        'status',
        /must be one of the following values: draft, sent, overdue, paid, cancelled/,
      ],
      [
        'an unknown field',
        { fields: ['number', 'secret'] },
        'fields=number,secret',
        'fields',
        /each value in `?fields`? must be one of the following values/,
      ],
      ['an object where fields must be an array', { fields: { number: true } }, '', 'fields', /must be an array/],
    ];
    for (const [label, args, query, field, message] of invalid) {
      it(`refuses ${label} naming \`${field}\``, async () => {
        const errors = await failure(admin, 'billing_invoices_search', args);
        const error = errors.find((e) => e.field === field);
        assert.ok(error, JSON.stringify(errors));
        assert.match(error.message, message);
        if (query) {
          const viaRest = await rest(admin, 'GET', `/v1/invoices?${query}`);
          assert.equal(viaRest.status, 400);
          assert.ok(
            viaRest.body.message.some((m: string) => m.includes(field)),
            JSON.stringify(viaRest.body),
          );
        }
      });
    }

    it('refuses a cursor it did not issue', async () => {
      for (const cursor of ['not-a-cursor', Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url')]) {
        const errors = await failure(admin, 'billing_invoices_search', { cursor });
        assert.deepEqual([errors[0].code, errors[0].field], ['invalid_cursor', 'cursor']);
        assert.match(errors[0].message, /pass next_cursor from the previous page unchanged/);
        assert.equal((await rest(admin, 'GET', `/v1/invoices?cursor=${cursor}`)).status, 400);
      }
    });
  });

  describe('GET /v1/invoices/:id and the billing://invoices/{id} resource', () => {
    let invoice: any;
    before(async () => {
      invoice = await createRest(acme.id, { notes: 'resource' });
    });

    it('reads one invoice with lines and a payments summary, the same over REST and as a resource', async () => {
      const viaRest = await rest(admin, 'GET', `/v1/invoices/${invoice.id}`);
      assert.equal(viaRest.status, 200);
      assert.deepEqual(viaRest.body, invoice);
      const uri = `billing://invoices/${invoice.id}`;
      const { body } = await rpc(admin, 'resources/read', { uri });
      const [content] = body.result.contents;
      assert.deepEqual([content.uri, content.mimeType], [uri, 'application/json']);
      assert.deepEqual(JSON.parse(content.text), viaRest.body);
    });

    it('lists the resource template for readers', async () => {
      const { body } = await rpc(admin, 'resources/templates/list', {});
      const template = body.result.resourceTemplates.find((entry: { uriTemplate: string }) => entry.uriTemplate === TEMPLATE);
      assert.ok(template);
      assert.equal(template.mimeType, 'application/json');
    });

    it('answers an unknown or malformed id: 404/400 over REST, -32602 as a resource', async () => {
      const missing = await rest(admin, 'GET', `/v1/invoices/${MISSING_ID}`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'not_found');
      assert.match(missing.body.message, /billing_invoices_search/);
      const malformed = await rest(admin, 'GET', '/v1/invoices/INV-000001');
      assert.equal(malformed.status, 400);
      assert.match(malformed.body.message, /must be a UUID/);
      const { body } = await rpc(admin, 'resources/read', { uri: `billing://invoices/${MISSING_ID}` });
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, /was not found in this workspace/);
    });

    it('completes invoice ids of the workspace, newest first, by prefix', async () => {
      const complete = async (value: string) =>
        (await rpc(admin, 'completion/complete', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'id', value } })).body
          .result.completion;
      const recent = await complete('');
      assert.ok(recent.values.length > 0 && recent.values.length <= 20);
      const newest = await t.prisma.client.invoice.findFirstOrThrow({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
      assert.equal(recent.values[0], newest.id);
      const prefix = invoice.id.slice(0, 6);
      const byPrefix = await complete(prefix.toUpperCase());
      assert.ok(byPrefix.values.includes(invoice.id));
      assert.ok(byPrefix.values.every((value: string) => value.startsWith(prefix)));
      assert.deepEqual((await complete('zz')).values, []);
    });
  });

  describe('PATCH /v1/invoices/:id (REST only)', () => {
    it('updates notes and due date, and sends a draft', async () => {
      const draft = await createRest(acme.id, { status: 'draft' });
      const { status, body } = await rest(accountant, 'PATCH', `/v1/invoices/${draft.id}`, {
        notes: 'Updated',
        due_date: day(45),
        status: 'sent',
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual([body.notes, body.due_date, body.status, body.updated_via], ['Updated', day(45), 'sent', 'api']);
      const cleared = await rest(accountant, 'PATCH', `/v1/invoices/${draft.id}`, { notes: '' });
      assert.equal(cleared.body.notes, null);
    });

    it('refuses a due date before the issue date, naming the field', async () => {
      const invoice = await createRest(acme.id);
      const { status, body } = await rest(admin, 'PATCH', `/v1/invoices/${invoice.id}`, { due_date: '2000-01-01' });
      assert.equal(status, 400);
      assert.equal(body.field, 'due_date');
      assert.match(body.message, /must be on or after the issue date/);
    });

    it('refuses other status changes and empty updates', async () => {
      const invoice = await createRest(acme.id);
      assert.equal((await rest(admin, 'PATCH', `/v1/invoices/${invoice.id}`, { status: 'paid' })).status, 400);
      assert.equal((await rest(admin, 'PATCH', `/v1/invoices/${invoice.id}`, {})).status, 400);
      assert.equal((await rest(admin, 'PATCH', `/v1/invoices/${MISSING_ID}`, { notes: 'x' })).status, 404);
    });
  });

  describe('billing_invoice_cancel / POST /v1/invoices/:id/cancel', () => {
    it('cancels over REST with an admin token, stamped updated_via=api', async () => {
      const invoice = await createRest(acme.id);
      const { status, body } = await rest(admin, 'POST', `/v1/invoices/${invoice.id}/cancel`, { reason: 'Issued to the wrong customer' });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.status, 'cancelled');
      assert.equal(body.cancel_reason, 'Issued to the wrong customer');
      assert.ok(Date.parse(body.cancelled_at) > Date.now() - 60_000);
      assert.equal(body.balance_minor, 0);
      assert.equal(body.updated_via, 'api');
      const again = await rest(admin, 'POST', `/v1/invoices/${invoice.id}/cancel`, { reason: 'Second attempt' });
      assert.equal(again.status, 422);
      assert.equal(again.body.code, 'invoice_already_cancelled');
      assert.match(again.body.message, /already cancelled \(Issued to the wrong customer\)/);
      assert.match(again.body.message_es, /ya está cancelada/);
      const patch = await rest(admin, 'PATCH', `/v1/invoices/${invoice.id}`, { notes: 'late' });
      assert.equal(patch.status, 422);
      assert.equal(patch.body.code, 'invoice_cancelled');
      const listed = await ok(admin, 'billing_invoices_search', { customer_id: acme.id, status: 'cancelled', limit: 50 });
      assert.ok(listed.items.some((item: { id: string }) => item.id === invoice.id));
    });

    it('refuses paid and partially paid invoices: refund the payments first', async () => {
      const paid = await createRest(acme.id);
      const partial = await createRest(acme.id);
      await asSystem(async () => {
        await t.prisma.client.invoice.update({ where: { id: paid.id }, data: { status: 'paid', paidMinor: paid.total_minor } });
        await t.prisma.client.invoice.update({ where: { id: partial.id }, data: { paidMinor: 10_000 } });
      });
      for (const invoice of [paid, partial]) {
        const { status, body } = await rest(admin, 'POST', `/v1/invoices/${invoice.id}/cancel`, { reason: 'Customer changed their mind' });
        assert.equal(status, 422);
        assert.equal(body.code, 'invoice_has_payments');
        assert.match(body.message, /refund the payments first/);
        assert.match(body.message_es, /reembolsa primero los pagos/);
        const row = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
        assert.notEqual(row.status, 'cancelled');
      }
    });

    it('validates the reason and the id, and answers not found', async () => {
      const invoice = await createRest(acme.id);
      const short = await rest(admin, 'POST', `/v1/invoices/${invoice.id}/cancel`, { reason: 'no' });
      assert.equal(short.status, 400);
      assert.match(short.body.message.join(' '), /`reason` must be longer than or equal to 5 characters/);
      // The path id and the body validated together (InvoiceArgs), under the rules of the other routes.
      const noReason = await rest(admin, 'POST', `/v1/invoices/${invoice.id}/cancel`, {});
      assert.equal(noReason.status, 400);
      assert.deepEqual(noReason.body.message, ['`reason` is missing']);
      const extra = await rest(admin, 'POST', `/v1/invoices/${invoice.id}/cancel`, { reason: 'Wrong amount', force: true });
      assert.equal(extra.status, 400);
      const badId = await rest(admin, 'POST', '/v1/invoices/INV-1/cancel', { reason: 'Wrong amount' });
      assert.equal(badId.status, 400);
      assert.match(badId.body.message.join(' '), /`invoice_id` must be a UUID/);
      const missing = await rest(admin, 'POST', `/v1/invoices/${MISSING_ID}/cancel`, { reason: 'Wrong amount' });
      assert.equal(missing.status, 404);
      assert.equal((await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status, 'sent');
    });

    it('is refused to an accountant (403 over REST, a tool error over MCP), and nothing changes', async () => {
      const invoice = await createRest(acme.id);
      const { status } = await rest(accountant, 'POST', `/v1/invoices/${invoice.id}/cancel`, { reason: 'Accountant tries' });
      assert.equal(status, 403);
      const envelope = await refusedByRole(
        accountant,
        'billing_invoice_cancel',
        { invoice_id: invoice.id, reason: 'Accountant tries' },
        'billing:admin',
      );
      assert.equal(envelope.status, 'failed', 'refused outright, not left waiting for an approval');
      assert.equal((await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status, 'sent');
    });

    it('over MCP waits for a person (approval link, no elicitation declared): pending_confirmation, nothing changes yet', async () => {
      const invoice = await createRest(acme.id);
      const { envelope, result } = await tool(admin, 'billing_invoice_cancel', { invoice_id: invoice.id, reason: 'Agent wants to cancel' });
      assert.equal(result.isError, undefined);
      assert.equal(envelope.safety, 'destructive');
      assert.equal(envelope.status, 'pending_confirmation');
      assert.match((envelope as unknown as { approval: { url: string } }).approval.url, /\/admin\/approvals\//);
      const row = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
      assert.deepEqual([row.status, row.cancelReason, row.cancelledAt], ['sent', null, null]);
    });
  });

  describe('official clients (they check structuredContent against outputSchema)', () => {
    const clients = {
      '@modelcontextprotocol/sdk 1.x': () => {
        const client = new SdkClient({ name: 'invoices-e2e', version: '1.0.0' });
        return { client, transport: new SdkTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer(admin) } }) };
      },
      '@modelcontextprotocol/client 2.x pinned to 2026-07-28': () => {
        const client = new Client({ name: 'invoices-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        return { client, transport: new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers: bearer(admin) } }) };
      },
    };
    for (const [label, make] of Object.entries(clients)) {
      it(`${label}: search (full and trimmed), create and the resource validate`, async () => {
        const { client, transport } = make();
        await (client as SdkClient).connect(transport);
        try {
          const c = client as SdkClient;
          await c.listTools(); // caches the output schemas the client validates against
          for (const args of [
            { customer_email: bulk.email, limit: 3 },
            { customer_email: bulk.email, fields: ['status'], limit: 3 },
            { status: 'draft' as const, customer_email: 'nobody@nowhere.test' },
          ]) {
            const result = await c.callTool({ name: 'billing_invoices_search', arguments: args });
            assert.equal(result.isError, undefined);
            assert.equal((result.structuredContent as { ok: boolean }).ok, true);
          }
          const created = await c.callTool({ name: 'billing_invoice_create', arguments: invoiceArgs(acme.id, { notes: label }) });
          const data = (created.structuredContent as { data: { id: string; notes: string; created_via: string } }).data;
          assert.deepEqual([data.notes, data.created_via], [label, 'mcp']);
          const read = await c.readResource({ uri: `billing://invoices/${data.id}` });
          assert.equal(JSON.parse((read.contents[0] as { text: string }).text).id, data.id);
          // Destructive: waits for a person; the pending answer still matches the output schema the client checks.
          const pending = await c.callTool({
            name: 'billing_invoice_cancel',
            arguments: { invoice_id: data.id, reason: 'Client tries to cancel' },
          });
          assert.equal((pending.structuredContent as { status: string }).status, 'pending_confirmation');
        } finally {
          await (client as SdkClient).close();
        }
      });
    }
  });

  it('documents the routes in Swagger from the same DTOs', async () => {
    const document = (await (await fetch(`${t.baseUrl}/docs-json`)).json()) as any;
    assert.ok(document.paths['/v1/invoices'].get && document.paths['/v1/invoices'].post);
    assert.ok(document.paths['/v1/invoices/{id}'].get && document.paths['/v1/invoices/{id}'].patch);
    const cancel = document.paths['/v1/invoices/{id}/cancel'].post;
    assert.match(JSON.stringify(cancel.requestBody), /CancelInvoiceBodyDto/);
    assert.deepEqual(cancel.security, [{ bearer: [] }]);
    const query = document.paths['/v1/invoices'].get.parameters.map((p: { name: string }) => p.name);
    for (const name of ['status', 'customer_email', 'issued_from', 'issued_to', 'due_before', 'limit', 'cursor', 'fields'])
      assert.ok(query.includes(name), name);
  });

  describe('workspaces', () => {
    let other: string;
    let otherCustomer: string;
    let otherInvoice: any;
    let demoInvoice: any;
    before(async () => {
      await asSystem(async () => {
        const workspace = await t.prisma.client.workspace.create({ data: { slug: 'other', name: 'Other Co' } });
        const user = await t.prisma.client.user.create({ data: { email: 'owner@other.test', name: 'Other Owner' } });
        await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
      });
      other = await t.token({ email: 'owner@other.test', workspaceSlug: 'other' });
      otherCustomer = (await rest(other, 'POST', '/v1/customers', { name: 'Secret Client', email: 'secret@other.test' })).body.id;
      otherInvoice = await ok(other, 'billing_invoice_create', invoiceArgs(otherCustomer, { notes: 'other workspace' }));
      demoInvoice = await createRest(acme.id);
    });

    it('numbers each workspace on its own', async () => {
      assert.equal(otherInvoice.number, 'INV-000001');
      const second = await createRest(otherCustomer, {}, other);
      assert.equal(second.number, 'INV-000002');
    });

    it('keeps invoices invisible across workspaces: search, read, resource, completion', async () => {
      const demoSearch = await ok(admin, 'billing_invoices_search', { limit: 50, fields: ['number'] });
      const otherSearch = await ok(other, 'billing_invoices_search', { limit: 50 });
      assert.equal(otherSearch.total_matching, 2);
      assert.ok(otherSearch.items.every((item: any) => item.customer.id === otherCustomer));
      assert.ok(!otherSearch.items.some((item: any) => item.id === demoInvoice.id));
      const demoTotal = await t.prisma.client.invoice.count({ where: { workspace: { slug: 'demo' } } });
      assert.equal(demoSearch.total_matching, demoTotal);
      const byCustomer = await ok(admin, 'billing_invoices_search', { customer_id: otherCustomer });
      assert.equal(byCustomer.total_matching, 0);
      assert.equal((await rest(admin, 'GET', `/v1/invoices/${otherInvoice.id}`)).status, 404);
      assert.equal((await rest(other, 'GET', `/v1/invoices/${demoInvoice.id}`)).status, 404);
      assert.equal((await rest(other, 'GET', `/v1/invoices/${otherInvoice.id}`)).status, 200);
      const resource = await rpc(admin, 'resources/read', { uri: `billing://invoices/${otherInvoice.id}` });
      assert.equal(resource.body.error.code, -32602);
      const completion = await rpc(admin, 'completion/complete', {
        ref: { type: 'ref/resource', uri: TEMPLATE },
        argument: { name: 'id', value: otherInvoice.id.slice(0, 8) },
      });
      assert.deepEqual(completion.body.result.completion.values, []);
    });

    it("cannot touch another workspace's invoice or bill its customer", async () => {
      const cancel = await rest(admin, 'POST', `/v1/invoices/${otherInvoice.id}/cancel`, { reason: 'Cross-workspace attempt' });
      assert.equal(cancel.status, 404);
      const patch = await rest(admin, 'PATCH', `/v1/invoices/${otherInvoice.id}`, { notes: 'hijacked' });
      assert.equal(patch.status, 404);
      const errors = await failure(admin, 'billing_invoice_create', invoiceArgs(otherCustomer));
      assert.equal(errors[0].code, 'not_found');
      const row = await t.prisma.client.invoice.findUniqueOrThrow({ where: { id: otherInvoice.id } });
      assert.deepEqual([row.status, row.notes], ['sent', 'other workspace']);
    });

    it('refuses to name a workspace the caller does not belong to, without revealing it', async () => {
      const unbound = await t.token({ workspaceSlug: undefined });
      for (const named of ['other', 'no-such-workspace']) {
        const errors = await failure(unbound, 'billing_invoices_search', { workspace_id: named });
        assert.equal(errors[0].message, `Workspace "${named}" was not found among your workspaces`);
      }
      const viaRest = await rest(unbound, 'GET', '/v1/invoices?workspace_id=other');
      assert.equal(viaRest.status, 403);
      const viaArgument = await ok(unbound, 'billing_invoices_search', { workspace_id: 'demo', fields: ['number'], limit: 1 });
      assert.ok(viaArgument.total_matching > 0);
    });
  });
});
