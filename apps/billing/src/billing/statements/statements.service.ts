import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { McpInvocation, McpResourceLink } from '@nest-mcp/core';
import { RequestContext } from '../../context/request-context.js';
import { PrismaService } from '../../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { attachmentUri, downloadPath, formatBytes, sizeLabel } from '../attachments/attachment-files.js';
import { attachmentLinks } from '../attachments/attachment-resources.js';
import { AttachmentStorage } from '../attachments/attachment-storage.js';
import type { SizeLimit, WrittenFile } from '../attachments/pending-attachment.js';
import { BillingError } from '../common/billing.errors.js';
import { csvLine, STATEMENT_CONTENT_TYPE, STATEMENT_HEADER, statementFilename } from './statement-csv.js';
import type { StatementExportDto, StatementExportResultDto } from './statement-export.dto.js';
import { EMBEDDED_PACE, type ExportPace, POSTGRES_PACE } from './export-pace.js';
import { STATEMENTS_CONFIG, type StatementsConfig } from './statements.config.js';

/** A finished export: its result (the envelope's data; REST's job result) and what an MCP client reads for the file. */
export interface StatementExport {
  result: StatementExportResultDto;
  resourceLinks: McpResourceLink[];
}

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
 * Long on purpose, and bounded in memory whatever the period: it reads the rows in keyset pages
 * (never one query holding every row, never an OFFSET that rescans) and writes the file as it
 * goes, a part at a time (`PendingAttachment`), pages and parts sized by `ExportPace` (500 rows and
 * 1 MiB on PostgreSQL; smaller, and resting between pages, on the embedded database). It runs as a
 * task (`task: 'background'` on the tool): between pages it checks the task's signal (a cancel
 * stops it there), reports progress (the task's statusMessage) and lets other requests run.
 *
 * Its transaction: the call hook's (`McpAuditHook` of @nest-mcp/prisma), whose limit follows the
 * task's run limit rather than a request's 15 s. Pages are read, and parts written, before that
 * transaction has sent anything (`PrismaService.readBeforeWrites` / `writeBeforeWrites`): an export
 * of minutes holds no transaction, snapshot or lock, and on the embedded database the client's
 * `tasks/get`, a cancel and every other request are served between pages. The parts make a
 * `pending` file, which no read sees; the transaction's one statement marks it ready, and commits
 * with the audit row and the task's `completed`, or not at all: a cancel, a timeout, an error or a
 * failed commit deletes the pending file (a crash leaves it to `PendingAttachmentsCleanup`). Each
 * page is its own snapshot: `as_of` keeps rows created during the export out of it.
 */
@Injectable()
export class StatementsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly storage: AttachmentStorage,
    @Inject(STATEMENTS_CONFIG) private readonly config: StatementsConfig,
  ) {}

  async export(dto: StatementExportDto, invocation?: Pick<McpInvocation, 'signal' | 'progress'>): Promise<StatementExport> {
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
    const pace = (await read(() => this.prisma.isEmbedded())) ? EMBEDDED_PACE : POSTGRES_PACE;
    const step = async (done: number) => {
      invocation?.signal?.throwIfAborted();
      await invocation?.progress(done, total, 'Exporting');
    };
    await step(0);

    const filename = statementFilename(workspace.slug, dto.from, dto.to, dto.customer_id);
    const file = await this.storage.createPending(
      { workspaceId: workspace.id, filename, contentType: STATEMENT_CONTENT_TYPE },
      { limit: this.sizeLimit(), partBytes: pace.partBytes },
    );
    let invoiceRows = 0;
    let paymentRows = 0;
    let written: WrittenFile;
    try {
      await file.write(STATEMENT_HEADER);
      await eachPage(
        pace,
        (after?: InvoiceRow) => read(() => this.invoicePage(scope, pace.pageRows, after)),
        async (page) => {
          await file.write(...page.map(invoiceLine));
          invoiceRows += page.length;
          await step(invoiceRows);
        },
      );
      await eachPage(
        pace,
        (after?: PaymentRow) => read(() => this.paymentPage(scope, pace.pageRows, after)),
        async (page) => {
          await file.write(...page.map(paymentLine));
          paymentRows += page.length;
          await step(invoiceRows + paymentRows);
        },
      );
      // The transaction's first statement (joined by the audit row and the task's outcome before it commits).
      written = await file.commit();
    } catch (error) {
      // At once rather than when the call's transaction ends (which deletes it too): the parts may be many.
      await this.storage.discard(file.id);
      throw error;
    }
    const result: StatementExportResultDto = {
      attachment_id: file.id,
      filename,
      content_type: STATEMENT_CONTENT_TYPE,
      size_bytes: written.sizeBytes,
      sha256: written.sha256,
      parts: written.partSizes.length,
      resource_uri: attachmentUri(file.id),
      from: dto.from,
      to: dto.to,
      customer_id: dto.customer_id ?? null,
      invoice_rows: invoiceRows,
      payment_rows: paymentRows,
      rows: invoiceRows + paymentRows,
      as_of: `${scope.asOf.slice(0, 23)}Z`,
      download_path: downloadPath(file.id),
    };
    const resourceLinks = attachmentLinks({ id: file.id, filename, contentType: STATEMENT_CONTENT_TYPE, partSizes: written.partSizes });
    return { result, resourceLinks };
  }

  /** `STATEMENT_EXPORT_MAX_BYTES`, checked as the file grows: past it the export stops and nothing is kept. */
  private sizeLimit(): SizeLimit {
    const { maxBytes } = this.config;
    const label = sizeLabel(maxBytes);
    return {
      maxBytes,
      tooLarge: (size) =>
        new BillingError(
          HttpStatus.PAYLOAD_TOO_LARGE,
          'statement_too_large',
          `The statement would be larger than ${label}, the most a statement export may store (over ${formatBytes(size)} ` +
            'after the rows read so far). Nothing was stored. Export a shorter period, or one customer at a time (customer_id).',
          {
            message_es: `El estado de cuenta superaría ${label}. No se guardó nada. Exporta un periodo más corto o un cliente a la vez.`,
            field: 'from',
          },
        ),
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
  private async invoicePage(scope: Scope, rows: number, after?: InvoiceRow): Promise<InvoiceRow[]> {
    const { rows: page } = await this.prisma.sql<InvoiceRow>(Prisma.sql`
      SELECT i.id, i.number, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
             i.status::text AS status, i.currency, i.total_minor, i.paid_minor, i.customer_id, c.name AS customer_name
      FROM invoices i JOIN customers c ON c.id = i.customer_id
      WHERE ${invoiceFilter(scope)}
        ${after ? Prisma.sql`AND (i.issue_date, i.number) > (${after.issue_date}::date, ${after.number})` : Prisma.empty}
      ORDER BY i.issue_date, i.number
      LIMIT ${rows}::int`);
    return page;
  }

  /** Payments received in the period (`paid_at` on one of its days, UTC), by time then id, after the previous page. */
  private async paymentPage(scope: Scope, rows: number, after?: PaymentRow): Promise<PaymentRow[]> {
    const { rows: page } = await this.prisma.sql<PaymentRow>(Prisma.sql`
      SELECT p.id, to_char(p.paid_at, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS paid_at, p.amount_minor, p.refunded_minor, p.currency,
             p.method::text AS method, p.reference, i.number AS invoice_number, i.customer_id, c.name AS customer_name
      FROM payments p JOIN invoices i ON i.id = p.invoice_id JOIN customers c ON c.id = i.customer_id
      WHERE ${paymentFilter(scope)}
        ${after ? Prisma.sql`AND (p.paid_at, p.id) > (${after.paid_at}::timestamp, ${after.id}::uuid)` : Prisma.empty}
      ORDER BY p.paid_at, p.id
      LIMIT ${rows}::int`);
    return page;
  }
}

/**
 * Reads pages of `pace.pageRows` rows, each after the last row of the one before, and hands each
 * to `handle`, until one comes back short; between pages it rests as `pace` says, so that the
 * requests that arrived meanwhile are served before the next page (see `ExportPace`).
 */
async function eachPage<Row>(
  pace: ExportPace,
  read: (after?: Row) => Promise<Row[]>,
  handle: (page: Row[]) => Promise<void>,
): Promise<void> {
  for (let after: Row | undefined; ;) {
    const started = performance.now();
    const page = await read(after);
    await handle(page);
    if (page.length < pace.pageRows) return;
    after = page[page.length - 1];
    await pace.rest(performance.now() - started);
  }
}

function invoiceLine(row: InvoiceRow): string {
  return csvLine({
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

function paymentLine(row: PaymentRow): string {
  return csvLine({
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
