import pg from 'pg';
import { post, statelessRequest, type HttpAnswer } from './mcp-http.js';

/**
 * Idempotent writes for the fault tests (crash, database outage, replicas): each write is a
 * `billing_invoice_create` with two lines whose `notes` and `idempotency_key` are the same unique
 * key, so the database can be checked afterwards key by key: exactly one invoice, whole (its two
 * lines, its total), and exactly one success audit row.
 */

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Arguments of the write for `key` (the same on every retry, as a client must send them). */
export function invoiceWrite(customerId: string, key: string) {
  return {
    customer_id: customerId,
    currency: 'MXN',
    issue_date: day(0),
    due_date: day(30),
    lines: [
      { description: `Work ${key}`, quantity: 2, unit_price_minor: 10_000 },
      { description: 'Travel', quantity: 1, unit_price_minor: 5_000 },
    ],
    notes: key,
    idempotency_key: key,
  };
}
/** The total of {@link invoiceWrite}: 2 × 100.00 + 50.00. */
export const INVOICE_WRITE_TOTAL = 25_000;

/** One 2026-era `tools/call` over HTTP; never throws on an HTTP status (a refused connection does throw). */
export async function toolCall(mcpUrl: string, token: string, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<HttpAnswer> {
  const request = statelessRequest('tools/call', { name, arguments: args });
  if (!signal) return post(mcpUrl, request.body, { ...request.headers, authorization: `Bearer ${token}` });
  const response = await fetch(mcpUrl, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...request.headers, authorization: `Bearer ${token}` },
    body: JSON.stringify(request.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** The tool's JSON envelope of a 200 answer, or undefined. */
export function envelopeOf(answer: HttpAnswer): { ok: boolean; status: string; data?: any; errors: Array<{ code: string }> } | undefined {
  const text = answer.body?.result?.content?.[0]?.text;
  return typeof text === 'string' ? JSON.parse(text) : undefined;
}

export interface LedgerCheck {
  /** Keys with no invoice (a write acknowledged but not stored, or never acknowledged). */
  lost: string[];
  /** Keys with more than one invoice. */
  duplicated: string[];
  /** Invoices not whole: missing lines or a total that is not the sum of its lines. */
  halfWritten: string[];
  /** Keys whose success audit rows are not exactly one. */
  auditMismatch: Array<{ key: string; audits: number }>;
  /** Invoices of this run without any success audit row, and success audit rows without an invoice. */
  writesWithoutAudit: string[];
  auditsWithoutWrite: string[];
  invoices: number;
  successAudits: number;
}

/** Checks the database (directly, not through the app) for the writes keyed `keys` (all starting with `prefix`). */
export async function checkLedger(databaseUrl: string, prefix: string, keys: string[]): Promise<LedgerCheck> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const invoices = (
      await client.query<{ id: string; notes: string; total: number; lines: number; sum: number }>(
        `SELECT i.id, i.notes, i.total_minor AS total, count(l.id)::int AS lines, coalesce(sum(l.amount_minor), 0)::int AS sum
         FROM invoices i LEFT JOIN invoice_lines l ON l.invoice_id = i.id
         WHERE i.notes LIKE $1 GROUP BY i.id`,
        [`${prefix}%`],
      )
    ).rows;
    const audits = (
      await client.query<{ key: string }>(
        `SELECT arguments->>'idempotency_key' AS key FROM audit_events
         WHERE method = 'tools/call' AND target = 'billing_invoice_create' AND outcome = 'success'
           AND arguments->>'idempotency_key' LIKE $1`,
        [`${prefix}%`],
      )
    ).rows;
    const count = (values: string[]) => values.reduce((map, value) => map.set(value, (map.get(value) ?? 0) + 1), new Map<string, number>());
    const invoicesByKey = count(invoices.map((i) => i.notes));
    const auditsByKey = count(audits.map((a) => a.key));
    return {
      lost: keys.filter((key) => !invoicesByKey.has(key)),
      duplicated: [...invoicesByKey].filter(([, n]) => n > 1).map(([key]) => key),
      halfWritten: invoices.filter((i) => i.lines !== 2 || i.total !== i.sum || i.total !== INVOICE_WRITE_TOTAL).map((i) => i.notes),
      auditMismatch: keys.map((key) => ({ key, audits: auditsByKey.get(key) ?? 0 })).filter((entry) => entry.audits !== 1),
      writesWithoutAudit: [...invoicesByKey.keys()].filter((key) => !auditsByKey.has(key)),
      auditsWithoutWrite: [...auditsByKey.keys()].filter((key) => !invoicesByKey.has(key)),
      invoices: invoices.length,
      successAudits: audits.length,
    };
  } finally {
    await client.end();
  }
}

/** A customer of the demo workspace to bill, created over REST. */
export async function createCustomer(baseUrl: string, token: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: `Customer ${email}`, email }),
  });
  const body = (await response.json()) as { id: string };
  if (response.status !== 201) throw new Error(`customer: ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}
