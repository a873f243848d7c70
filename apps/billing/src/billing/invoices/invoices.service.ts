import { BadRequestException, HttpStatus, Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import type { TransactionClient } from '../../database/prisma.types.js';
import { Prisma, type Invoice, type InvoiceStatus } from '../../generated/prisma/client.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../../identity/current-workspace.js';
import { decodeCursor, pageOf } from '../common/cursor.js';
import { dayOf, formatDate, formatMoney, MAX_AMOUNT_MINOR, parseDate } from '../common/money.js';
import {
  INVOICE_SUMMARY_FIELDS,
  SEARCH_DEFAULT_LIMIT,
  type CancelInvoiceDto,
  type CreateInvoiceDto,
  type InvoiceSummaryField,
  type SearchInvoicesDto,
  type UpdateInvoiceDto,
} from './invoice-input.dto.js';
import type { InvoiceDto, InvoiceSearchResultDto, InvoiceSummaryDto } from './invoice-output.dto.js';
import { balanceOf, effectiveStatus, statusSql, today } from './invoice-status.js';

const NUMBER_PREFIX = 'INV-';
/** Above this many pages' worth of matches, a search answers with a hint to narrow it. */
const HINT_PAGES = 3;
/** Completion suggestions: the most recent invoices whose id starts with what was typed. */
const COMPLETION_LIMIT = 20;

const CUSTOMER_SELECT = { select: { id: true, name: true, email: true } } as const;
const DETAIL_INCLUDE = {
  customer: CUSTOMER_SELECT,
  lines: { orderBy: { position: 'asc' } },
  payments: { select: { amountMinor: true, refundedMinor: true, paidAt: true } },
} as const satisfies Prisma.InvoiceInclude;

/**
 * What a search result is made of: some invoice columns and its customer. Its days are Dates (an
 * invoice read through Prisma) or "YYYY-MM-DD" as the search statement writes them (`to_char`).
 */
type SummaryFields = Pick<Invoice, 'id' | 'number' | 'status' | 'currency' | 'totalMinor' | 'paidMinor'> &
  Record<'issueDate' | 'dueDate', Date | string> & { customer: { id: string; name: string; email: string } };
type InvoiceWithDetail = Prisma.InvoiceGetPayload<{ include: typeof DETAIL_INCLUDE }>;

const NOT_FOUND_HINT = 'check the id, or find the invoice with billing_invoices_search (by customer_email, status or issue dates)';

/**
 * Invoices of the current workspace. The same code serves REST and MCP; every query names the
 * workspace, so another workspace's invoice is answered exactly like one that does not exist.
 */
@Injectable()
export class InvoicesService {
  constructor(private readonly prisma: PrismaService) {}

  async search(dto: SearchInvoicesDto): Promise<InvoiceSearchResultDto> {
    const workspaceId = currentWorkspaceId();
    const limit = dto.limit ?? SEARCH_DEFAULT_LIMIT;
    const position = decodeCursor(dto.cursor, 'date');
    const todayDate = today();

    // Page (with each invoice's customer) and total in ONE statement: with Prisma's `include` and
    // `count` they were three (page, customers, count). Sent straight to the driver: Prisma's raw
    // query path cost more CPU than the rest of this route (bench/README.md); the columns are
    // int4 and text, which pg reads as Prisma would. Prepared (one name per set of filters): its
    // planning cost PostgreSQL more than its run. Days come back as the "YYYY-MM-DD" they are answered in.
    const { rows } = await this.prisma.prepared<SearchRow>(
      'invoices_search',
      Prisma.sql`
      SELECT n.total, p.*
      FROM (SELECT count(*)::int AS total FROM invoices i ${dto.customer_email ? CUSTOMER_JOIN : Prisma.empty} WHERE ${searchWhere(workspaceId, dto, todayDate)}) n
      LEFT JOIN LATERAL (
        SELECT i.id::text AS "id", i.number AS "number", i.status::text AS "status", i.currency AS "currency",
               to_char(i.issue_date, 'YYYY-MM-DD') AS "issueDate", to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate",
               i.total_minor AS "totalMinor", i.paid_minor AS "paidMinor",
               c.id::text AS "customerId", c.name AS "customerName", c.email AS "customerEmail"
        FROM invoices i ${CUSTOMER_JOIN}
        WHERE ${searchWhere(workspaceId, dto, todayDate)}
          ${position ? Prisma.sql`AND (i.issue_date < ${isoDate(position.key)}::date OR (i.issue_date = ${isoDate(position.key)}::date AND i.id > ${position.id}::uuid))` : Prisma.empty}
        -- Keyset paging on (issue_date desc, id asc): strictly after the last row of the previous page.
        ORDER BY i.issue_date DESC, i.id ASC
        LIMIT ${limit + 1}
      ) p ON true`,
    );
    const total = rows[0]?.total ?? 0;
    const found = rows.filter((row) => row.id !== null).map(invoiceOfRow);

    const { page, nextCursor } = pageOf(found, limit, (row) => dayOf(row.issueDate));
    const fields = new Set<InvoiceSummaryField>(dto.fields ?? INVOICE_SUMMARY_FIELDS);
    const hint = searchHint(dto, total, page.length, limit);
    return {
      items: page.map((row) => pick(toSummary(row, todayDate), fields)),
      next_cursor: nextCursor,
      total_matching: total,
      ...(hint ? { hint } : {}),
    };
  }

  async get(id: string): Promise<InvoiceDto> {
    return toInvoiceDto(await this.load(this.prisma.db, id), today());
  }

  async create(dto: CreateInvoiceDto): Promise<InvoiceDto> {
    const workspaceId = currentWorkspaceId();
    const lines = dto.lines.map((line, index) => ({
      position: index + 1,
      description: line.description,
      quantity: line.quantity,
      unitPriceMinor: line.unit_price_minor,
      amountMinor: line.quantity * line.unit_price_minor,
    }));
    const total = lines.reduce((sum, line) => sum + line.amountMinor, 0);
    if (total > MAX_AMOUNT_MINOR) {
      throw BillingError.businessRule(
        'invoice_total_too_large',
        `The lines add up to ${formatMoney(total, dto.currency)}, above the largest invoice total (${formatMoney(MAX_AMOUNT_MINOR, dto.currency)}); split them into several invoices`,
        `Las líneas suman ${formatMoney(total, dto.currency)}, más que el total máximo de una factura (${formatMoney(MAX_AMOUNT_MINOR, dto.currency)}); repártelas en varias facturas`,
        'lines',
      );
    }

    return this.prisma.transaction(async (tx) => {
      const customer = await tx.customer.findFirst({ where: { id: dto.customer_id, workspaceId }, select: { id: true } });
      if (!customer) {
        throw BillingError.notFound(
          'Customer',
          dto.customer_id,
          'check the customer_id, or create the customer first with billing_customer_create',
        );
      }
      const data = {
        workspaceId,
        customerId: customer.id,
        status: dto.status ?? 'sent',
        currency: dto.currency,
        issueDate: parseDate(dto.issue_date ?? today()),
        dueDate: parseDate(dto.due_date),
        totalMinor: total,
        paidMinor: 0,
        notes: dto.notes ?? null,
      };
      const invoiceId = await this.insertNumbered(tx, workspaceId, data);
      await tx.invoiceLine.createMany({
        // created_via / updated_via are stamped by PrismaService from the request's channel.
        data: lines.map((line) => ({ ...line, workspaceId, invoiceId })),
      });
      return toInvoiceDto(await this.load(tx, invoiceId), today());
    });
  }

  async update(id: string, dto: UpdateInvoiceDto): Promise<InvoiceDto> {
    if (dto.notes === undefined && dto.due_date === undefined && dto.status === undefined) {
      throw new BadRequestException({
        statusCode: HttpStatus.BAD_REQUEST,
        code: 'invalid_argument',
        message: 'Nothing to update: send at least one of notes, due_date or status',
      });
    }
    return this.prisma.transaction(async (tx) => {
      const invoice = await this.load(tx, id);
      if (invoice.status === 'cancelled') {
        throw BillingError.businessRule(
          'invoice_cancelled',
          `Invoice ${invoice.number} is cancelled and can no longer be changed; create a new invoice instead`,
          `La factura ${invoice.number} está cancelada y ya no se puede modificar; crea una factura nueva`,
        );
      }
      if (dto.due_date !== undefined && dto.due_date < formatDate(invoice.issueDate)) {
        throw new BadRequestException({
          statusCode: HttpStatus.BAD_REQUEST,
          code: 'invalid_argument',
          field: 'due_date',
          message: `due_date (${dto.due_date}) must be on or after the issue date of ${invoice.number} (${formatDate(invoice.issueDate)})`,
        });
      }
      if (dto.status === 'sent' && !['draft', 'sent', 'overdue'].includes(invoice.status)) {
        throw BillingError.businessRule(
          'invalid_status_transition',
          `Invoice ${invoice.number} is ${invoice.status}; only a draft can be marked sent`,
          `La factura ${invoice.number} está ${invoice.status}; solo un borrador se puede marcar como enviada`,
          'status',
        );
      }
      await tx.invoice.update({
        where: { id: invoice.id },
        data: {
          ...(dto.notes !== undefined ? { notes: dto.notes || null } : {}),
          ...(dto.due_date !== undefined ? { dueDate: parseDate(dto.due_date) } : {}),
          ...(dto.status === 'sent' && invoice.status === 'draft' ? { status: 'sent' as const } : {}),
        },
      });
      return toInvoiceDto(await this.load(tx, invoice.id), today());
    });
  }

  async cancel(dto: CancelInvoiceDto): Promise<InvoiceDto> {
    return this.prisma.transaction(async (tx) => {
      const invoice = await this.load(tx, dto.invoice_id);
      assertCancellable(invoice);
      // Guarded again in the write: a payment recorded meanwhile keeps the invoice alive.
      const { count } = await tx.invoice.updateMany({
        where: { id: invoice.id, workspaceId: invoice.workspaceId, status: { notIn: ['cancelled', 'paid'] }, paidMinor: 0 },
        data: { status: 'cancelled', cancelReason: dto.reason, cancelledAt: new Date() },
      });
      if (count !== 1) assertCancellable(await this.load(tx, invoice.id));
      return toInvoiceDto(await this.load(tx, invoice.id), today());
    });
  }

  /** Ids of the workspace's invoices that start with `prefix`, most recent first. */
  async recentIds(prefix: string): Promise<string[]> {
    const typed = prefix.trim().toLowerCase();
    if (!/^[0-9a-f-]{0,36}$/.test(typed)) return [];
    const rows = await this.prisma.db.$queryRaw<Array<{ id: string }>>`
      SELECT id::text AS id FROM invoices
      WHERE workspace_id = ${currentWorkspaceId()}::uuid AND id::text LIKE ${`${typed}%`}
      ORDER BY created_at DESC, id
      LIMIT ${COMPLETION_LIMIT}`;
    return rows.map((row) => row.id);
  }

  private async load(db: TransactionClient, id: string): Promise<InvoiceWithDetail> {
    const invoice = await db.invoice.findFirst({ where: { id, workspaceId: currentWorkspaceId() }, include: DETAIL_INCLUDE });
    if (!invoice) throw BillingError.notFound('Invoice', id, NOT_FOUND_HINT);
    return invoice;
  }

  /**
   * Inserts the invoice with the next number of its workspace (INV-000001, INV-000002, …).
   * Creations in one workspace queue on a transaction-scoped advisory lock, so two never compute
   * the same number; the unique (workspace_id, number) constraint still guards anything that
   * writes numbers without it: on a collision the insert is retried once with a fresh number,
   * inside a savepoint so the surrounding transaction (the MCP call's, with its audit) survives.
   */
  private async insertNumbered(
    tx: TransactionClient,
    workspaceId: string,
    data: Omit<Prisma.InvoiceUncheckedCreateInput, 'number' | 'createdVia' | 'updatedVia'>,
  ): Promise<string> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invoice-number:${workspaceId}`}))`;
    for (let attempt = 1; ; attempt++) {
      const number = await nextNumber(tx, workspaceId);
      await tx.$executeRawUnsafe('SAVEPOINT invoice_number');
      try {
        const invoice = await tx.invoice.create({
          // created_via / updated_via are stamped by PrismaService from the request's channel.
          data: { ...data, number },
          select: { id: true },
        });
        await tx.$executeRawUnsafe('RELEASE SAVEPOINT invoice_number');
        return invoice.id;
      } catch (error) {
        if (attempt > 1 || (error as { code?: unknown }).code !== 'P2002') throw error;
        await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT invoice_number');
      }
    }
  }
}

async function nextNumber(tx: TransactionClient, workspaceId: string): Promise<string> {
  const [row] = await tx.$queryRaw<Array<{ last: number }>>`
    SELECT COALESCE(MAX(CAST(substring(number FROM 5) AS integer)), 0)::integer AS last FROM invoices
    WHERE workspace_id = ${workspaceId}::uuid AND number ~ '^INV-[0-9]{1,9}$'`;
  return `${NUMBER_PREFIX}${String(Number(row?.last ?? 0) + 1).padStart(6, '0')}`;
}

function assertCancellable(invoice: InvoiceWithDetail): void {
  if (invoice.status === 'cancelled') {
    throw BillingError.businessRule(
      'invoice_already_cancelled',
      `Invoice ${invoice.number} is already cancelled (${invoice.cancelReason ?? 'no reason given'}); nothing to do`,
      `La factura ${invoice.number} ya está cancelada (${invoice.cancelReason ?? 'sin motivo'}); no hay nada que hacer`,
    );
  }
  if (invoice.status === 'paid' || invoice.paidMinor > 0) {
    const paid = formatMoney(invoice.paidMinor, invoice.currency);
    throw BillingError.businessRule(
      'invoice_has_payments',
      `Invoice ${invoice.number} has ${paid} paid and cannot be cancelled; refund the payments first, then cancel it`,
      `La factura ${invoice.number} tiene ${paid} pagados y no se puede cancelar; reembolsa primero los pagos y después cancélala`,
    );
  }
}

const CUSTOMER_JOIN = Prisma.sql`JOIN customers c ON c.id = i.customer_id`;

/** One row of the search statement: the total, and one invoice of the page (all null when the page is empty). */
type SearchRow = { total: number } & (({ id: string } & Omit<SearchInvoiceRow, 'id'>) | { [K in keyof SearchInvoiceRow]: null });
interface SearchInvoiceRow {
  id: string;
  number: string;
  status: InvoiceStatus;
  currency: string;
  issueDate: string;
  dueDate: string;
  totalMinor: number;
  paidMinor: number;
  customerId: string;
  customerName: string;
  customerEmail: string;
}

/** The search filters as SQL (over `invoices i`, and `customers c` for customer_email); every value a parameter. */
function searchWhere(workspaceId: string, dto: SearchInvoicesDto, todayDate: string): Prisma.Sql {
  const filters = [Prisma.sql`i.workspace_id = ${workspaceId}::uuid`];
  if (dto.status) filters.push(statusSql(dto.status, todayDate));
  if (dto.customer_id) filters.push(Prisma.sql`i.customer_id = ${dto.customer_id}::uuid`);
  if (dto.customer_email) filters.push(Prisma.sql`c.email = ${dto.customer_email.toLowerCase()}`);
  if (dto.issued_from) filters.push(Prisma.sql`i.issue_date >= ${isoDate(dto.issued_from)}::date`);
  if (dto.issued_to) filters.push(Prisma.sql`i.issue_date <= ${isoDate(dto.issued_to)}::date`);
  if (dto.due_before) filters.push(Prisma.sql`i.due_date < ${isoDate(dto.due_before)}::date`);
  return Prisma.join(filters, ' AND ');
}

/** A validated calendar day, normalised (parseDate refuses what is not one). */
function isoDate(text: string): string {
  return formatDate(parseDate(text));
}

function invoiceOfRow(row: SearchRow): SummaryFields {
  const r = row as SearchInvoiceRow;
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    currency: r.currency,
    issueDate: r.issueDate,
    dueDate: r.dueDate,
    totalMinor: r.totalMinor,
    paidMinor: r.paidMinor,
    customer: { id: r.customerId, name: r.customerName, email: r.customerEmail },
  };
}

function toSummary(row: SummaryFields, todayDate: string): Required<InvoiceSummaryDto> {
  return {
    id: row.id,
    number: row.number,
    customer: { id: row.customer.id, name: row.customer.name, email: row.customer.email },
    status: effectiveStatus(row.status, row.dueDate, todayDate),
    currency: row.currency,
    total_minor: row.totalMinor,
    paid_minor: row.paidMinor,
    balance_minor: balanceOf(row),
    issue_date: dayOf(row.issueDate),
    due_date: dayOf(row.dueDate),
  };
}

function pick(summary: Required<InvoiceSummaryDto>, fields: Set<InvoiceSummaryField>): InvoiceSummaryDto {
  const result: InvoiceSummaryDto = { id: summary.id };
  for (const field of INVOICE_SUMMARY_FIELDS) {
    if (fields.has(field)) (result as unknown as Record<string, unknown>)[field] = summary[field];
  }
  return result;
}

/**
 * A sentence for the model when the answer is a poor basis to reason on: far more matches than a
 * few pages hold (more than HINT_PAGES × limit), or none at all. It names the filters not used yet.
 */
function searchHint(dto: SearchInvoicesDto, total: number, returned: number, limit: number): string | undefined {
  if (total === 0) {
    const used = (['status', 'customer_id', 'customer_email', 'issued_from', 'issued_to', 'due_before'] as const).filter(
      (f) => dto[f] !== undefined,
    );
    return used.length ? `No invoice matches; remove or widen ${used.join(', ')} and search again.` : 'This workspace has no invoices yet.';
  }
  if (total <= HINT_PAGES * limit) return undefined;
  const unused = [
    !dto.status && 'status',
    !dto.customer_id && !dto.customer_email && 'customer_email',
    !dto.issued_from && !dto.issued_to && 'an issue-date range (issued_from/issued_to)',
    !dto.due_before && 'due_before',
  ].filter((f): f is string => !!f);
  const narrow = unused.length ? `add ${joinOr(unused)} to narrow them` : 'narrow the filters you used';
  return `${total} invoices match and this page shows ${returned}; ${narrow}, or pass next_cursor to read on.`;
}

function joinOr(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

export function toInvoiceDto(invoice: InvoiceWithDetail, todayDate: string): InvoiceDto {
  const received = invoice.payments.reduce((sum, p) => sum + p.amountMinor, 0);
  const refunded = invoice.payments.reduce((sum, p) => sum + p.refundedMinor, 0);
  const lastPaid = invoice.payments.reduce<Date | null>((latest, p) => (!latest || p.paidAt > latest ? p.paidAt : latest), null);
  return {
    ...toSummary(invoice, todayDate),
    notes: invoice.notes,
    lines: invoice.lines.map((line) => ({
      position: line.position,
      description: line.description,
      quantity: line.quantity,
      unit_price_minor: line.unitPriceMinor,
      amount_minor: line.amountMinor,
    })),
    payments: {
      count: invoice.payments.length,
      received_minor: received,
      refunded_minor: refunded,
      last_paid_at: lastPaid ? lastPaid.toISOString() : null,
    },
    cancel_reason: invoice.cancelReason,
    cancelled_at: invoice.cancelledAt ? invoice.cancelledAt.toISOString() : null,
    created_via: invoice.createdVia,
    updated_via: invoice.updatedVia,
    created_at: invoice.createdAt.toISOString(),
  };
}
