/**
 * The statement file: CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they hold
 * a comma, a quote or a line break), UTF-8, one header row, then one row per invoice issued in the
 * period and one per payment received in it. Amounts are integers in minor units, as everywhere.
 */

/** The columns, in order. An invoice row leaves the payment columns empty, and the other way round. */
export const STATEMENT_COLUMNS = [
  'record_type',
  'id',
  'date',
  'invoice_number',
  'customer_id',
  'customer_name',
  'currency',
  'amount_minor',
  'status',
  'due_date',
  'paid_minor',
  'refunded_minor',
  'method',
  'reference',
] as const;

export type StatementColumn = (typeof STATEMENT_COLUMNS)[number];
export type StatementRow = Partial<Record<StatementColumn, string | number | null>>;

export const STATEMENT_CONTENT_TYPE = 'text/csv';
const CRLF = '\r\n';

export const STATEMENT_HEADER = `${STATEMENT_COLUMNS.join(',')}${CRLF}`;

/**
 * One field. Text written by third parties (a customer name, a payment reference) that starts
 * like a formula (`=`, `+`, `-`, `@`, tab, carriage return) gets a leading apostrophe, so that a
 * spreadsheet opening the file shows it instead of running it (CSV injection, OWASP).
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(row: StatementRow): string {
  return `${STATEMENT_COLUMNS.map((column) => csvField(row[column])).join(',')}${CRLF}`;
}

/** `statement-<workspace>-<from>-<to>[-customer-<first 8 of its id>].csv`: a bare file name. */
export function statementFilename(workspaceSlug: string, from: string, to: string, customerId?: string): string {
  const slug = workspaceSlug.replace(/[^A-Za-z0-9_-]/g, '_');
  return `statement-${slug}-${from}-${to}${customerId ? `-customer-${customerId.slice(0, 8)}` : ''}.csv`;
}
