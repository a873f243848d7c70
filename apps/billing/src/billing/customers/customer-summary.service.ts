import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { Prisma, type InvoiceStatus } from '../../generated/prisma/client.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../../identity/current-workspace.js';
import { parseDate } from '../common/money.js';
import { effectiveStatus, today } from '../invoices/invoice-status.js';
import type { CurrencyBalanceDto, CustomerSummaryDto, CustomerSummaryQueryDto } from './customer-summary.dto.js';

const RECENT = 5;

/** An open or closed (not cancelled) invoice of the customer, newest issue date first. */
interface SummaryInvoice {
  id: string;
  number: string;
  status: InvoiceStatus;
  currency: string;
  totalMinor: number;
  paidMinor: number;
  /** YYYY-MM-DD */
  dueDate: string;
}

interface SummaryRow {
  id: string;
  name: string;
  email: string;
  invoices: SummaryInvoice[];
}

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
    // The customer and its invoices in ONE statement (they were two queries), straight to the
    // driver as the invoice search is (text and json columns: pg reads them as Prisma would).
    const {
      rows: [customer],
    } = await this.prisma.sql<SummaryRow>(Prisma.sql`
      SELECT c.id::text AS "id", c.name AS "name", c.email AS "email",
             COALESCE((
               SELECT json_agg(json_build_object(
                        'id', i.id, 'number', i.number, 'status', i.status, 'currency', i.currency,
                        'totalMinor', i.total_minor, 'paidMinor', i.paid_minor, 'dueDate', to_char(i.due_date, 'YYYY-MM-DD')
                      ) ORDER BY i.issue_date DESC, i.id ASC)
               FROM invoices i
               WHERE i.workspace_id = c.workspace_id AND i.customer_id = c.id AND i.status <> 'cancelled'
             ), '[]'::json) AS "invoices"
      FROM customers c
      WHERE c.workspace_id = ${workspaceId}::uuid
        AND ${query.customer_id ? Prisma.sql`c.id = ${query.customer_id}::uuid` : Prisma.sql`c.email = ${query.email!.toLowerCase()}`}`);
    if (!customer) {
      throw BillingError.notFound('Customer', query.customer_id ?? query.email!, 'check the email with the user, or create the customer');
    }
    const invoices = customer.invoices;
    const todayDate = today();
    // The search's rule (effectiveStatus): a summary and a search never disagree on an invoice.
    const statusOf = (invoice: SummaryInvoice) => effectiveStatus(invoice.status, parseDate(invoice.dueDate), todayDate);
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
        due_date: invoice.dueDate,
      })),
      overdue_count: overdueCount,
      balances: [...balances.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    };
  }
}
