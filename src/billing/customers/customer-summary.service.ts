import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../common/current-workspace.js';
import { formatDate } from '../common/money.js';
import type { CurrencyBalanceDto, CustomerSummaryDto, CustomerSummaryQueryDto } from './customer-summary.dto.js';

const RECENT = 5;

/** One customer's billing picture, trimmed to what a person (or a model) needs to act. */
@Injectable()
export class CustomerSummaryService {
  constructor(private readonly prisma: PrismaService) {}

  async summarize(query: CustomerSummaryQueryDto): Promise<CustomerSummaryDto> {
    const workspaceId = currentWorkspaceId();
    if (!query.email && !query.customer_id) {
      throw BillingError.needsMoreInfo(
        'missing_customer_identity',
        'Say which customer: pass email or customer_id',
        'Which customer is it? Give me their billing email (or customer id).',
        { message_es: 'Falta identificar al cliente: indica su email o su id', field: 'email' },
      );
    }
    const customer = await this.prisma.db.customer.findFirst({
      where: { workspaceId, ...(query.customer_id ? { id: query.customer_id } : { email: query.email!.toLowerCase() }) },
    });
    if (!customer) {
      throw BillingError.notFound('Customer', query.customer_id ?? query.email!, 'check the email with the user, or create the customer');
    }
    const invoices = await this.prisma.db.invoice.findMany({
      where: { workspaceId, customerId: customer.id, status: { not: 'cancelled' } },
      orderBy: [{ issueDate: 'desc' }, { id: 'asc' }],
      select: { id: true, number: true, status: true, currency: true, totalMinor: true, paidMinor: true, dueDate: true, issueDate: true },
    });
    const today = formatDate(new Date());
    const statusOf = (invoice: (typeof invoices)[number]) =>
      invoice.status === 'sent' && formatDate(invoice.dueDate) < today ? 'overdue' : invoice.status;
    const balances = new Map<string, CurrencyBalanceDto>();
    let overdueCount = 0;
    for (const invoice of invoices) {
      const status = statusOf(invoice);
      if (status !== 'sent' && status !== 'overdue') continue;
      const balance = balances.get(invoice.currency) ?? { currency: invoice.currency, open_minor: 0, overdue_minor: 0, overdue_count: 0 };
      const owed = invoice.totalMinor - invoice.paidMinor;
      balance.open_minor += owed;
      if (status === 'overdue') {
        balance.overdue_minor += owed;
        balance.overdue_count += 1;
        overdueCount += 1;
      }
      balances.set(invoice.currency, balance);
    }
    return {
      customer: { id: customer.id, name: customer.name, email: customer.email },
      recent_invoices: invoices.slice(0, RECENT).map((invoice) => ({
        id: invoice.id,
        number: invoice.number,
        status: statusOf(invoice),
        currency: invoice.currency,
        total_minor: invoice.totalMinor,
        balance_minor: invoice.totalMinor - invoice.paidMinor,
        due_date: formatDate(invoice.dueDate),
      })),
      overdue_count: overdueCount,
      balances: [...balances.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    };
  }
}
