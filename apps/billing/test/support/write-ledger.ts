import { withClient } from './test-database.js';

/**
 * Idempotent writes for the fault tests (crash, database outage, replicas): each write is a
 * `billing_invoice_create` with two lines whose `notes` and `idempotency_key` are the same unique
 * key, so the database can be checked afterwards key by key: exactly one invoice, whole (its two
 * lines, its total), and exactly one success audit row of its own (see {@link checkLedger}).
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

export interface LedgerCheck {
  /** Keys with no invoice (a write acknowledged but not stored, or never acknowledged). */
  lost: string[];
  /** Keys with more than one invoice. */
  duplicated: string[];
  /** Invoices not whole: missing lines or a total that is not the sum of its lines. */
  halfWritten: string[];
  /**
   * Keys whose write does not have exactly one success audit row committed in its own
   * transaction (see {@link checkLedger}).
   */
  auditMismatch: Array<{ key: string; audits: number }>;
  /** Keys whose stored answer (idempotency record) does not name the stored invoice. */
  answerMismatch: string[];
  /** Invoices without the audit row of their write, and success audit rows of keys without an invoice. */
  writesWithoutAudit: string[];
  auditsWithoutWrite: string[];
  invoices: number;
  /** Success audit rows of the writes (one per write). */
  writeAudits: number;
  /** Success audit rows of repeated calls answered from the stored answer (every call is audited; they wrote nothing). */
  replayAudits: number;
}

/**
 * Checks the database (directly, not through the app) for the writes keyed `keys` (all starting
 * with `prefix`).
 *
 * Every call is audited, so a key repeated after its write committed (a retry whose first answer
 * was lost) has more than one success audit row: one for the call that wrote, one per replay. The
 * write's own row is the one committed in the write's transaction: the same transaction id
 * (`xmin`) as the key's idempotency record, which the call that wrote updated with its answer (the
 * claim, the answer and the audit row are written at the transaction's top level; the invoice
 * itself goes through a savepoint, hence the link through the record, whose answer names it).
 */
export async function checkLedger(databaseUrl: string, prefix: string, keys: string[]): Promise<LedgerCheck> {
  return withClient(databaseUrl, async (client) => {
    const invoices = (
      await client.query<{ id: string; notes: string; total: number; lines: number; sum: number }>(
        `SELECT i.id, i.notes, i.total_minor AS total, count(l.id)::int AS lines, coalesce(sum(l.amount_minor), 0)::int AS sum
         FROM invoices i LEFT JOIN invoice_lines l ON l.invoice_id = i.id
         WHERE i.notes LIKE $1 GROUP BY i.id`,
        [`${prefix}%`],
      )
    ).rows;
    const records = (
      await client.query<{ key: string; xid: string; result: string | null }>(
        `SELECT key, xmin::text AS xid, result #>> '{}' AS result FROM mcp_idempotency_records
         WHERE tool = 'billing_invoice_create' AND key LIKE $1`,
        [`${prefix}%`],
      )
    ).rows;
    const audits = (
      await client.query<{ key: string; xid: string }>(
        `SELECT arguments->>'idempotency_key' AS key, xmin::text AS xid FROM mcp_audit_events
         WHERE method = 'tools/call' AND target = 'billing_invoice_create' AND outcome = 'success'
           AND arguments->>'idempotency_key' LIKE $1`,
        [`${prefix}%`],
      )
    ).rows;
    const count = (values: string[]) => values.reduce((map, value) => map.set(value, (map.get(value) ?? 0) + 1), new Map<string, number>());
    const invoicesByKey = count(invoices.map((i) => i.notes));
    const invoiceIdByKey = new Map(invoices.map((i) => [i.notes, i.id]));
    const recordByKey = new Map(records.map((r) => [r.key, r]));
    const writeAudits = audits.filter((a) => recordByKey.get(a.key)?.xid === a.xid);
    const writeAuditsByKey = count(writeAudits.map((a) => a.key));
    const answeredId = (key: string) => {
      const result = recordByKey.get(key)?.result;
      const text = result ? (JSON.parse(result) as { content?: Array<{ text?: string }> }).content?.[0]?.text : undefined;
      return text ? (JSON.parse(text) as { data?: { id?: string } }).data?.id : undefined;
    };
    return {
      lost: keys.filter((key) => !invoicesByKey.has(key)),
      duplicated: [...invoicesByKey].filter(([, n]) => n > 1).map(([key]) => key),
      halfWritten: invoices.filter((i) => i.lines !== 2 || i.total !== i.sum || i.total !== INVOICE_WRITE_TOTAL).map((i) => i.notes),
      auditMismatch: keys.map((key) => ({ key, audits: writeAuditsByKey.get(key) ?? 0 })).filter((entry) => entry.audits !== 1),
      answerMismatch: keys.filter((key) => invoiceIdByKey.has(key) && answeredId(key) !== invoiceIdByKey.get(key)),
      writesWithoutAudit: [...invoicesByKey.keys()].filter((key) => !writeAuditsByKey.has(key)),
      auditsWithoutWrite: [...new Set(audits.map((a) => a.key))].filter((key) => !invoicesByKey.has(key)),
      invoices: invoices.length,
      writeAudits: writeAudits.length,
      replayAudits: audits.length - writeAudits.length,
    };
  });
}

/** The fields of a {@link LedgerCheck} that must all be empty. */
export function ledgerFaults(ledger: LedgerCheck) {
  const { lost, duplicated, halfWritten, auditMismatch, answerMismatch, writesWithoutAudit, auditsWithoutWrite } = ledger;
  return { lost, duplicated, halfWritten, auditMismatch, answerMismatch, writesWithoutAudit, auditsWithoutWrite };
}
export const NO_LEDGER_FAULTS = {
  lost: [],
  duplicated: [],
  halfWritten: [],
  auditMismatch: [],
  answerMismatch: [],
  writesWithoutAudit: [],
  auditsWithoutWrite: [],
};

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
