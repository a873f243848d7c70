import type { InvoiceStatus, Prisma } from '../../generated/prisma/client.js';
import { formatDate, parseDate } from '../common/money.js';

/**
 * Overdue is computed on read, never stored by this module: an invoice whose stored status is
 * `sent` (or `overdue`, should a seed or import have stored it) is reported `overdue` when its
 * due date is before today (UTC), and `sent` otherwise. So it turns overdue at midnight without a
 * job, stops being overdue when its due date is moved later, and searching by status uses the
 * very same rule (see `statusWhere`).
 */
export const INVOICE_STATUSES = ['draft', 'sent', 'overdue', 'paid', 'cancelled'] as const satisfies readonly InvoiceStatus[];

/** Today as a UTC calendar day, the reference for due dates. */
export function today(): string {
  return formatDate(new Date());
}

export function effectiveStatus(stored: InvoiceStatus, dueDate: Date, todayDate: string): InvoiceStatus {
  if (stored !== 'sent' && stored !== 'overdue') return stored;
  return formatDate(dueDate) < todayDate ? 'overdue' : 'sent';
}

/** The `where` that selects invoices whose effective status is `status`. */
export function statusWhere(status: InvoiceStatus, todayDate: string): Prisma.InvoiceWhereInput {
  const open: InvoiceStatus[] = ['sent', 'overdue'];
  switch (status) {
    case 'sent':
      return { status: { in: open }, dueDate: { gte: parseDate(todayDate) } };
    case 'overdue':
      return { status: { in: open }, dueDate: { lt: parseDate(todayDate) } };
    default:
      return { status };
  }
}

/** What is still owed: nothing on a cancelled invoice, never negative. */
export function balanceOf(invoice: { status: InvoiceStatus; totalMinor: number; paidMinor: number }): number {
  return invoice.status === 'cancelled' ? 0 : Math.max(invoice.totalMinor - invoice.paidMinor, 0);
}
