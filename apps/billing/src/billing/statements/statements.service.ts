import { createHash } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { McpInvocation } from '@nest-mcp/core';
import { RequestContext } from '../../context/request-context.js';
import { PrismaService } from '../../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { downloadPath, formatBytes, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_LABEL } from '../attachments/attachment-files.js';
import { BillingError } from '../common/billing.errors.js';
import { csvLine, STATEMENT_CONTENT_TYPE, STATEMENT_HEADER, statementFilename } from './statement-csv.js';
import type { StatementExportDto, StatementExportResultDto } from './statement-export.dto.js';

/** Rows read per query: a page is one short statement, and between pages the run checks its signal and reports progress. */
export const STATEMENT_PAGE_ROWS = 500;

interface InvoiceRow {
  id: string;
  number: string;
  issue_date: string;
  due_date: string;
  status: string;
  currency: string;
  total_minor: number;
  paid_minor: number;
  customer_id: string;
  customer_name: string;
}

interface PaymentRow {
  id: string;
  /** `YYYY-MM-DDTHH:MI:SS.MS` (UTC): the keyset cursor, exact to the column's precision. */
  paid_at: string;
  amount_minor: number;
  refunded_minor: number;
  currency: string;
  method: string;
  reference: string | null;
  invoice_number: string;
  customer_id: string;
  customer_name: string;
}

/** The rows of one export: fixed once, at its start (see `as_of`). */
interface Scope {
  workspaceId: string;
  from: string;
  to: string;
  customerId?: string;
  /** `created_at` bound, UTC wall time as the columns hold it. */
  asOf: string;
}

/**
 * Period statements: every invoice issued and every payment received in a period, of the
 * workspace or of one customer, as a CSV file stored as an attachment.
 *
 * Long on purpose: it streams the rows in keyset pages of {@link STATEMENT_PAGE_ROWS} (never one
 * query holding every row, never an OFFSET that rescans), and runs as a task (`task: 'background'`
 * on the tool): between pages it checks the task's signal (a cancel stops it there) and reports
 * progress, which becomes the task's statusMessage.
 *
 * Its transaction: the call hook's (`McpAuditHook` of @nest-mcp/prisma), whose limit follows the task's run limit
 * rather than a request's 15 s. The pages are read before that transaction has sent anything
 * (`PrismaService.readBeforeWrites`): an export of minutes holds no database transaction open
 * while it reads (no snapshot or lock kept that long; on the embedded database, the client's
 * `tasks/get` and a cancel are served between pages). The file is written at the end, in the
 * transaction, which commits it with the audit row and the task's `completed`, or nothing (a
 * cancel, a timeout, a crash). Each page is its own snapshot: `as_of` keeps rows created during
 * the export out of it.
 */
@Injectable()
export class StatementsService {
  constructor(private readonly prisma: PrismaService) {}

  async export(dto: StatementExportDto, invocation?: Pick<McpInvocation, 'signal' | 'progress'>): Promise<StatementExportResultDto> {
    const workspace = RequestContext.require().workspace!;
    const read = <T>(work: () => Promise<T>) => this.prisma.readBeforeWrites(work);
    const known = await read(async () =>
      dto.customer_id
        ? await this.prisma.db.customer.findFirst({ where: { id: dto.customer_id, workspaceId: workspace.id }, select: { id: true } })
        : true,
    );
    if (!known) {
      throw BillingError.notFound('Customer', dto.customer_id!, 'check the customer id, or omit customer_id to export the whole workspace');
    }
    const { rows } = await read(() =>
      this.prisma.sql<{ as_of: string }>(
        Prisma.sql`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS as_of`,
      ),
    );
    const scope: Scope = { workspaceId: workspace.id, from: dto.from, to: dto.to, customerId: dto.customer_id, asOf: rows[0].as_of };
    const [invoiceCount, paymentCount] = await read(() => this.counts(scope));
    const total = invoiceCount + paymentCount;
    const file = new StatementFile();
    const step = async (done: number) => {
      invocation?.signal?.throwIfAborted();
      await invocation?.progress(done, total, 'Exporting');
    };
    await step(0);

    let invoiceRows = 0;
    for await (const page of keysetPages((after?: InvoiceRow) => read(() => this.invoicePage(scope, after)))) {
      for (const row of page) {
        file.add({
          record_type: 'invoice',
          id: row.id,
          date: row.issue_date,
          invoice_number: row.number,
          customer_id: row.customer_id,
          customer_name: row.customer_name,
          currency: row.currency,
          amount_minor: row.total_minor,
          status: row.status,
          due_date: row.due_date,
          paid_minor: row.paid_minor,
        });
      }
      invoiceRows += page.length;
      await step(invoiceRows);
    }

    let paymentRows = 0;
    for await (const page of keysetPages((after?: PaymentRow) => read(() => this.paymentPage(scope, after)))) {
      for (const row of page) {
        file.add({
          record_type: 'payment',
          id: row.id,
          date: row.paid_at.slice(0, 10),
          invoice_number: row.invoice_number,
          customer_id: row.customer_id,
          customer_name: row.customer_name,
          currency: row.currency,
          amount_minor: row.amount_minor,
          refunded_minor: row.refunded_minor,
          method: row.method,
          reference: row.reference,
        });
      }
      paymentRows += page.length;
      await step(invoiceRows + paymentRows);
    }

    const bytes = file.bytes();
    const filename = statementFilename(workspace.slug, dto.from, dto.to, dto.customer_id);
    // The transaction's first statement (joined by the audit row and the task's outcome before it commits).
    const attachment = await this.prisma.transaction((tx) =>
      tx.attachment.create({
        data: {
          workspaceId: workspace.id,
          filename,
          contentType: STATEMENT_CONTENT_TYPE,
          sizeBytes: bytes.length,
          sha256: file.sha256(),
          content: new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
        },
        select: { id: true, sizeBytes: true, sha256: true },
      }),
    );
    return {
      attachment_id: attachment.id,
      filename,
      content_type: STATEMENT_CONTENT_TYPE,
      size_bytes: attachment.sizeBytes,
      sha256: attachment.sha256,
      from: dto.from,
      to: dto.to,
      customer_id: dto.customer_id ?? null,
      invoice_rows: invoiceRows,
      payment_rows: paymentRows,
      rows: invoiceRows + paymentRows,
      as_of: `${scope.asOf.slice(0, 23)}Z`,
      download_path: downloadPath(attachment.id),
    };
  }

  /** How many rows the export will write: the progress total. */
  private async counts(scope: Scope): Promise<[number, number]> {
    const { rows } = await this.prisma.sql<{ invoices: number; payments: number }>(Prisma.sql`
      SELECT (SELECT count(*)::int FROM invoices i WHERE ${invoiceFilter(scope)}) AS invoices,
             (SELECT count(*)::int FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE ${paymentFilter(scope)}) AS payments`);
    return [rows[0].invoices, rows[0].payments];
  }

  /** Invoices issued in the period, by issue date then number, after the last row of the previous page. */
  private async invoicePage(scope: Scope, after?: InvoiceRow): Promise<InvoiceRow[]> {
    const { rows } = await this.prisma.sql<InvoiceRow>(Prisma.sql`
      SELECT i.id, i.number, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
             i.status::text AS status, i.currency, i.total_minor, i.paid_minor, i.customer_id, c.name AS customer_name
      FROM invoices i JOIN customers c ON c.id = i.customer_id
      WHERE ${invoiceFilter(scope)}
        ${after ? Prisma.sql`AND (i.issue_date, i.number) > (${after.issue_date}::date, ${after.number})` : Prisma.empty}
      ORDER BY i.issue_date, i.number
      LIMIT ${STATEMENT_PAGE_ROWS}::int`);
    return rows;
  }

  /** Payments received in the period (`paid_at` on one of its days, UTC), by time then id, after the previous page. */
  private async paymentPage(scope: Scope, after?: PaymentRow): Promise<PaymentRow[]> {
    const { rows } = await this.prisma.sql<PaymentRow>(Prisma.sql`
      SELECT p.id, to_char(p.paid_at, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS paid_at, p.amount_minor, p.refunded_minor, p.currency,
             p.method::text AS method, p.reference, i.number AS invoice_number, i.customer_id, c.name AS customer_name
      FROM payments p JOIN invoices i ON i.id = p.invoice_id JOIN customers c ON c.id = i.customer_id
      WHERE ${paymentFilter(scope)}
        ${after ? Prisma.sql`AND (p.paid_at, p.id) > (${after.paid_at}::timestamp, ${after.id}::uuid)` : Prisma.empty}
      ORDER BY p.paid_at, p.id
      LIMIT ${STATEMENT_PAGE_ROWS}::int`);
    return rows;
  }
}

/** Pages of {@link STATEMENT_PAGE_ROWS} rows, each read after the last row of the one before, until one comes back short. */
async function* keysetPages<Row>(read: (after?: Row) => Promise<Row[]>): AsyncGenerator<Row[]> {
  for (let after: Row | undefined; ;) {
    const page = await read(after);
    yield page;
    if (page.length < STATEMENT_PAGE_ROWS) return;
    after = page[page.length - 1];
  }
}

function invoiceFilter(scope: Scope): Prisma.Sql {
  return Prisma.sql`i.workspace_id = ${scope.workspaceId}::uuid
    AND i.issue_date BETWEEN ${scope.from}::date AND ${scope.to}::date
    AND i.created_at <= ${scope.asOf}::timestamp
    ${scope.customerId ? Prisma.sql`AND i.customer_id = ${scope.customerId}::uuid` : Prisma.empty}`;
}

function paymentFilter(scope: Scope): Prisma.Sql {
  return Prisma.sql`p.workspace_id = ${scope.workspaceId}::uuid
    AND p.paid_at >= ${scope.from}::date AND p.paid_at < ${scope.to}::date + 1
    AND p.created_at <= ${scope.asOf}::timestamp
    ${scope.customerId ? Prisma.sql`AND i.customer_id = ${scope.customerId}::uuid` : Prisma.empty}`;
}

/** The CSV as it grows: its bytes by page, its SHA-256, and the attachment cap checked at every row. */
class StatementFile {
  private readonly chunks: Buffer[] = [];
  private readonly hash = createHash('sha256');
  private size = 0;

  constructor() {
    this.append(STATEMENT_HEADER);
  }

  add(row: Parameters<typeof csvLine>[0]): void {
    this.append(csvLine(row));
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  private append(text: string): void {
    const chunk = Buffer.from(text, 'utf8');
    this.size += chunk.length;
    if (this.size > MAX_ATTACHMENT_BYTES) {
      throw new BillingError(
        HttpStatus.PAYLOAD_TOO_LARGE,
        'statement_too_large',
        `The statement would be larger than ${MAX_ATTACHMENT_LABEL}, the most a stored file may hold (over ${formatBytes(MAX_ATTACHMENT_BYTES)} ` +
          'after the rows read so far). Nothing was stored. Export a shorter period, or one customer at a time (customer_id).',
        {
          message_es: `El estado de cuenta superaría ${MAX_ATTACHMENT_LABEL}. No se guardó nada. Exporta un periodo más corto o un cliente a la vez.`,
          field: 'from',
        },
      );
    }
    this.chunks.push(chunk);
    this.hash.update(chunk);
  }
}
