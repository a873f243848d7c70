var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../common/current-workspace.js';
import { parseDate } from '../common/money.js';
import { effectiveStatus, today } from '../invoices/invoice-status.js';
const RECENT = 5;
/** One customer's billing picture, trimmed to what a person (or a model) needs to act. */
let CustomerSummaryService = class CustomerSummaryService {
    prisma;
    constructor(prisma) {
        this.prisma = prisma;
    }
    async summarize(query) {
        const workspaceId = currentWorkspaceId();
        if (!query.email && !query.customer_id) {
            throw BillingError.needsMoreInfo('missing_customer_identity', 'Say which customer: pass email or customer_id', 'Which customer is it? Give me their billing email (or customer id).', { message_es: 'Falta identificar al cliente: indica su email o su id', field: 'email' });
        }
        // The customer and its invoices in ONE statement (they were two queries).
        const [customer] = await this.prisma.db.$queryRaw `
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
        AND ${query.customer_id ? Prisma.sql `c.id = ${query.customer_id}::uuid` : Prisma.sql `c.email = ${query.email.toLowerCase()}`}`;
        if (!customer) {
            throw BillingError.notFound('Customer', query.customer_id ?? query.email, 'check the email with the user, or create the customer');
        }
        const invoices = customer.invoices;
        const todayDate = today();
        // The search's rule (effectiveStatus): a summary and a search never disagree on an invoice.
        const statusOf = (invoice) => effectiveStatus(invoice.status, parseDate(invoice.dueDate), todayDate);
        const balances = new Map();
        let overdueCount = 0;
        for (const invoice of invoices) {
            const status = statusOf(invoice);
            if (status !== 'sent' && status !== 'overdue')
                continue;
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
};
CustomerSummaryService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [PrismaService])
], CustomerSummaryService);
export { CustomerSummaryService };
//# sourceMappingURL=customer-summary.service.js.map