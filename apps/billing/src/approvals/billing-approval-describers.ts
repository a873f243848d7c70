import { Injectable } from '@nestjs/common';
import { formatMoney } from '../billing/common/money.js';
import { PrismaService } from '../database/prisma.service.js';
import { DescribesApprovalIds, type ApprovalDescriber, type ApprovalDescriberContext } from '@nest-mcp/admin';

/*
 * The billing module's describers (see ApprovalDescriber): what an invoice, payment or customer id
 * of an approval names, read in the approval's workspace only. Registered by ApprovalsModule.
 */

/** `invoice_id` → "Invoice INV-000123 · Acme Logistics · 3,750.00 MXN (sent)". */
@Injectable()
@DescribesApprovalIds('invoice_id')
export class InvoiceApprovalDescriber implements ApprovalDescriber {
  constructor(private readonly prisma: PrismaService) {}

  async describe(ids: string[], { workspaceId }: ApprovalDescriberContext): Promise<ReadonlyMap<string, string>> {
    const invoices = await this.prisma.db.invoice.findMany({
      where: { id: { in: ids }, workspaceId },
      select: { id: true, number: true, status: true, totalMinor: true, currency: true, customer: { select: { name: true } } },
    });
    return new Map(
      invoices.map((i) => [i.id, `Invoice ${i.number} · ${i.customer.name} · ${formatMoney(i.totalMinor, i.currency)} (${i.status})`]),
    );
  }
}

/** `payment_id` → "Payment of 1,000.00 MXN, 200.00 MXN refunded · Acme Logistics · invoice INV-000123". */
@Injectable()
@DescribesApprovalIds('payment_id')
export class PaymentApprovalDescriber implements ApprovalDescriber {
  constructor(private readonly prisma: PrismaService) {}

  async describe(ids: string[], { workspaceId }: ApprovalDescriberContext): Promise<ReadonlyMap<string, string>> {
    const payments = await this.prisma.db.payment.findMany({
      where: { id: { in: ids }, workspaceId },
      select: {
        id: true,
        amountMinor: true,
        refundedMinor: true,
        currency: true,
        invoice: { select: { number: true, customer: { select: { name: true } } } },
      },
    });
    return new Map(
      payments.map((p) => {
        const refunded = p.refundedMinor ? `, ${formatMoney(p.refundedMinor, p.currency)} refunded` : '';
        return [
          p.id,
          `Payment of ${formatMoney(p.amountMinor, p.currency)}${refunded} · ${p.invoice.customer.name} · invoice ${p.invoice.number}`,
        ];
      }),
    );
  }
}

/** `customer_id` → "Customer Acme Logistics <billing@acme.test>". */
@Injectable()
@DescribesApprovalIds('customer_id')
export class CustomerApprovalDescriber implements ApprovalDescriber {
  constructor(private readonly prisma: PrismaService) {}

  async describe(ids: string[], { workspaceId }: ApprovalDescriberContext): Promise<ReadonlyMap<string, string>> {
    const customers = await this.prisma.db.customer.findMany({
      where: { id: { in: ids }, workspaceId },
      select: { id: true, name: true, email: true },
    });
    return new Map(customers.map((c) => [c.id, `Customer ${c.name} <${c.email}>`]));
  }
}

export const BILLING_APPROVAL_DESCRIBERS = [InvoiceApprovalDescriber, PaymentApprovalDescriber, CustomerApprovalDescriber];
