/**
 * The statement file: CSV (RFC 4180: comma-separated, CRLF line ends, quotes doubled), UTF-8, one
 * header row, then one row per invoice issued in the period and one per payment received in it.
 * Amounts are integers in minor units, as everywhere. A field is quoted when it holds a comma, a
 * quote or a line break, and also a semicolon or a tab: spreadsheets set to another locale split
 * on those, and a quoted field stays one cell in every one of them.
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

/** Characters that end a cell in some spreadsheet (`,` here; `;` and tab in other locales; a line break). */
const SEPARATORS = new Set([',', ';', '\t', '\r', '\n']);
/** Characters that make a spreadsheet read a cell as a formula. */
const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r']);
/** Cheap test for the slow path below: a formula start at the beginning or right after a separator. */
const MAY_NEED_GUARD = /(?:^|[,;\t\r\n])[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * One field. Text written by third parties (a customer name, a payment reference) that starts
 * like a formula (`=`, `+`, `-`, `@`, tab, carriage return) gets a leading apostrophe, so that a
 * spreadsheet opening the file shows it instead of running it (CSV injection, OWASP). Not only at
 * the start of the field: a spreadsheet that splits on `;` or tabs (or a user who pastes the cell)
 * sees `=2+5` in `Semi;=2+5` as a cell of its own, so every segment after a separator is guarded too.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && MAY_NEED_GUARD.test(text)) text = guardFormulas(text);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * An apostrophe before each segment that starts like a formula. A loop, not a regex replace: a
 * tab or CR both starts a formula and separates, so `\t=1` needs two guards (`'\t'=1`), and a
 * global replace skips the character after a zero-length match at the start.
 */
function guardFormulas(text: string): string {
  let guarded = '';
  let segmentStart = true;
  for (const char of text) {
    if (segmentStart && FORMULA_STARTS.has(char)) guarded += "'";
    guarded += char;
    segmentStart = SEPARATORS.has(char);
  }
  return guarded;
}

export function csvLine(row: StatementRow): string {
  return `${STATEMENT_COLUMNS.map((column) => csvField(row[column])).join(',')}${CRLF}`;
}

/** `statement-<workspace>-<from>-<to>[-customer-<first 8 of its id>].csv`: a bare file name. */
export function statementFilename(workspaceSlug: string, from: string, to: string, customerId?: string): string {
  const slug = workspaceSlug.replace(/[^A-Za-z0-9_-]/g, '_');
  return `statement-${slug}-${from}-${to}${customerId ? `-customer-${customerId.slice(0, 8)}` : ''}.csv`;
}
