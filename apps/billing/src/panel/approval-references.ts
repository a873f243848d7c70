import { Injectable } from '@nestjs/common';
import type { ApprovalView } from '../approvals/approval.view.js';
import { formatMoney } from '../billing/common/money.js';
import { PrismaService } from '../database/prisma.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Argument names whose value is the id of a record the approver should recognise. */
const REFERENCE_FIELDS = ['invoice_id', 'payment_id', 'customer_id'] as const;
type ReferenceField = (typeof REFERENCE_FIELDS)[number];

/** What an id argument points at, in words: id → e.g. "INV-000123 · Acme Logistics · 3,750.00 MXN". */
export type References = ReadonlyMap<string, string>;

export const NOT_FOUND_REFERENCE = '(not found)';

/**
 * Reads, in the approval's workspace only and read-only, the invoices, payments and customers a
 * call's top-level `*_id` arguments name, so the approver sees what would change, not just ids.
 * An id with no such record in that workspace reads "(not found)".
 */
@Injectable()
export class ApprovalReferences {
  constructor(private readonly prisma: PrismaService) {}

  async of(approval: ApprovalView): Promise<References> {
    const ids: Record<ReferenceField, string[]> = { invoice_id: [], payment_id: [], customer_id: [] };
    for (const field of REFERENCE_FIELDS) {
      const value = approval.arguments?.[field];
      if (typeof value === 'string' && UUID.test(value)) ids[field].push(value.toLowerCase());
    }
    const workspaceId = approval.workspace.id;
    const db = this.prisma.db;
    const [invoices, payments, customers] = await Promise.all([
      ids.invoice_id.length
        ? db.invoice.findMany({
            where: { id: { in: ids.invoice_id }, workspaceId },
            select: { id: true, number: true, status: true, totalMinor: true, currency: true, customer: { select: { name: true } } },
          })
        : [],
      ids.payment_id.length
        ? db.payment.findMany({
            where: { id: { in: ids.payment_id }, workspaceId },
            select: {
              id: true,
              amountMinor: true,
              refundedMinor: true,
              currency: true,
              invoice: { select: { number: true, customer: { select: { name: true } } } },
            },
          })
        : [],
      ids.customer_id.length
        ? db.customer.findMany({ where: { id: { in: ids.customer_id }, workspaceId }, select: { id: true, name: true, email: true } })
        : [],
    ]);
    const references = new Map<string, string>();
    for (const id of Object.values(ids).flat()) references.set(id, NOT_FOUND_REFERENCE);
    for (const i of invoices)
      references.set(i.id, `Invoice ${i.number} · ${i.customer.name} · ${formatMoney(i.totalMinor, i.currency)} (${i.status})`);
    for (const p of payments) {
      const refunded = p.refundedMinor ? `, ${formatMoney(p.refundedMinor, p.currency)} refunded` : '';
      references.set(
        p.id,
        `Payment of ${formatMoney(p.amountMinor, p.currency)}${refunded} · ${p.invoice.customer.name} · invoice ${p.invoice.number}`,
      );
    }
    for (const c of customers) references.set(c.id, `Customer ${c.name} <${c.email}>`);
    return references;
  }
}
