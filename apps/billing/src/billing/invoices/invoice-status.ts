import { Prisma, type InvoiceStatus } from '../../generated/prisma/client.js';
import { dayOf, formatDate } from '../common/money.js';

/**
 * Overdue is computed on read, never stored by this module: an invoice whose stored status is
 * `sent` (or `overdue`, should a seed or import have stored it) is reported `overdue` when its
 * due date is before today (UTC), and `sent` otherwise. So it turns overdue at midnight without a
 * job, stops being overdue when its due date is moved later, and searching by status uses the
 * very same rule (see `statusSql`).
 */
export const INVOICE_STATUSES = ['draft', 'sent', 'overdue', 'paid', 'cancelled'] as const satisfies readonly InvoiceStatus[];

/** Today as a UTC calendar day, the reference for due dates. */
export function today(): string {
  return formatDate(new Date());
}

export function effectiveStatus(stored: InvoiceStatus, dueDate: Date | string, todayDate: string): InvoiceStatus {
  if (stored !== 'sent' && stored !== 'overdue') return stored;
  return dayOf(dueDate) < todayDate ? 'overdue' : 'sent';
}

/** The SQL condition (over `invoices i`) that selects invoices whose effective status is `status`. */
export function statusSql(status: InvoiceStatus, todayDate: string): Prisma.Sql {
  switch (status) {
    case 'sent':
      return Prisma.sql`i.status IN ('sent', 'overdue') AND i.due_date >= ${todayDate}::date`;
    case 'overdue':
      return Prisma.sql`i.status IN ('sent', 'overdue') AND i.due_date < ${todayDate}::date`;
    default:
      return Prisma.sql`i.status = ${status}::"InvoiceStatus"`;
  }
}

/** What is still owed: nothing on a cancelled invoice, never negative. */
export function balanceOf(invoice: { status: InvoiceStatus; totalMinor: number; paidMinor: number }): number {
  return invoice.status === 'cancelled' ? 0 : Math.max(invoice.totalMinor - invoice.paidMinor, 0);
}
