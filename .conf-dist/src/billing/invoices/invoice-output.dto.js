var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INVOICE_STATUSES } from './invoice-status.js';
const CHANNELS = ['mcp', 'api', 'panel', 'system'];
const STATUS_DESCRIPTION = 'draft, sent, overdue (sent and past its due date, computed on read), paid or cancelled.';
export class InvoiceCustomerDto {
    id;
    name;
    email;
}
__decorate([
    ApiProperty({ description: 'Customer id (UUID).' }),
    __metadata("design:type", String)
], InvoiceCustomerDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Customer name.' }),
    __metadata("design:type", String)
], InvoiceCustomerDto.prototype, "name", void 0);
__decorate([
    ApiProperty({ description: 'Customer billing email.' }),
    __metadata("design:type", String)
], InvoiceCustomerDto.prototype, "email", void 0);
/** One search result: only what a model needs to reason about an invoice. */
export class InvoiceSummaryDto {
    id;
    number;
    customer;
    status;
    currency;
    total_minor;
    paid_minor;
    balance_minor;
    issue_date;
    due_date;
}
__decorate([
    ApiProperty({ description: 'Invoice id (UUID): pass it to other invoice tools or read billing://invoices/{id}.' }),
    __metadata("design:type", String)
], InvoiceSummaryDto.prototype, "id", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Human invoice number, e.g. INV-000123. Omitted when `fields` excludes it.' }),
    __metadata("design:type", String)
], InvoiceSummaryDto.prototype, "number", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Who is billed. Omitted when `fields` excludes it.', type: () => InvoiceCustomerDto }),
    __metadata("design:type", InvoiceCustomerDto)
], InvoiceSummaryDto.prototype, "customer", void 0);
__decorate([
    ApiPropertyOptional({ description: `Status: ${STATUS_DESCRIPTION} Omitted when \`fields\` excludes it.`, enum: INVOICE_STATUSES }),
    __metadata("design:type", String)
], InvoiceSummaryDto.prototype, "status", void 0);
__decorate([
    ApiPropertyOptional({ description: 'ISO 4217 currency of every amount. Omitted when `fields` excludes it.' }),
    __metadata("design:type", String)
], InvoiceSummaryDto.prototype, "currency", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Invoice total in minor units (cents). Omitted when `fields` excludes it.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceSummaryDto.prototype, "total_minor", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Paid so far, net of refunds, in minor units. Omitted when `fields` excludes it.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceSummaryDto.prototype, "paid_minor", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Still owed in minor units (0 when cancelled). Omitted when `fields` excludes it.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceSummaryDto.prototype, "balance_minor", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Issue date, YYYY-MM-DD. Omitted when `fields` excludes it.', format: 'date' }),
    __metadata("design:type", String)
], InvoiceSummaryDto.prototype, "issue_date", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Due date, YYYY-MM-DD. Omitted when `fields` excludes it.', format: 'date' }),
    __metadata("design:type", String)
], InvoiceSummaryDto.prototype, "due_date", void 0);
export class InvoiceSearchResultDto {
    items;
    next_cursor;
    total_matching;
    hint;
}
__decorate([
    ApiProperty({ description: 'Matching invoices, newest issue date first (then by id).', type: [InvoiceSummaryDto] }),
    __metadata("design:type", Array)
], InvoiceSearchResultDto.prototype, "items", void 0);
__decorate([
    ApiPropertyOptional({
        description: 'Pass it back as `cursor` to read the next page; null on the last page.',
        type: String,
        nullable: true,
    }),
    __metadata("design:type", Object)
], InvoiceSearchResultDto.prototype, "next_cursor", void 0);
__decorate([
    ApiProperty({ description: 'How many invoices match the filters in all (every page together).', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceSearchResultDto.prototype, "total_matching", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Present when far more invoices match than a few pages hold, or none do: how to narrow or widen the search.' }),
    __metadata("design:type", String)
], InvoiceSearchResultDto.prototype, "hint", void 0);
export class InvoiceLineDto {
    position;
    description;
    quantity;
    unit_price_minor;
    amount_minor;
}
__decorate([
    ApiProperty({ description: 'Line position, from 1.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceLineDto.prototype, "position", void 0);
__decorate([
    ApiProperty({ description: 'What is billed.' }),
    __metadata("design:type", String)
], InvoiceLineDto.prototype, "description", void 0);
__decorate([
    ApiProperty({ description: 'Units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceLineDto.prototype, "quantity", void 0);
__decorate([
    ApiProperty({ description: 'Price of one unit in minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceLineDto.prototype, "unit_price_minor", void 0);
__decorate([
    ApiProperty({ description: 'quantity × unit_price_minor, in minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceLineDto.prototype, "amount_minor", void 0);
export class InvoicePaymentsSummaryDto {
    count;
    received_minor;
    refunded_minor;
    last_paid_at;
}
__decorate([
    ApiProperty({ description: 'Payments recorded against the invoice.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoicePaymentsSummaryDto.prototype, "count", void 0);
__decorate([
    ApiProperty({ description: 'Sum of those payments in minor units, before refunds.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoicePaymentsSummaryDto.prototype, "received_minor", void 0);
__decorate([
    ApiProperty({ description: 'Refunded out of them, in minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoicePaymentsSummaryDto.prototype, "refunded_minor", void 0);
__decorate([
    ApiPropertyOptional({ description: 'When the last payment was made, ISO 8601; null without payments.', type: String, nullable: true, format: 'date-time' }),
    __metadata("design:type", Object)
], InvoicePaymentsSummaryDto.prototype, "last_paid_at", void 0);
/** One invoice in full: what create, cancel, `GET /v1/invoices/:id` and billing://invoices/{id} return. */
export class InvoiceDto {
    id;
    number;
    customer;
    status;
    currency;
    total_minor;
    paid_minor;
    balance_minor;
    issue_date;
    due_date;
    notes;
    lines;
    payments;
    cancel_reason;
    cancelled_at;
    created_via;
    updated_via;
    created_at;
}
__decorate([
    ApiProperty({ description: 'Invoice id (UUID).' }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Human invoice number, sequential per workspace: INV-000123.' }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "number", void 0);
__decorate([
    ApiProperty({ description: 'Who is billed.', type: () => InvoiceCustomerDto }),
    __metadata("design:type", InvoiceCustomerDto)
], InvoiceDto.prototype, "customer", void 0);
__decorate([
    ApiProperty({ description: `Status: ${STATUS_DESCRIPTION}`, enum: INVOICE_STATUSES }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "status", void 0);
__decorate([
    ApiProperty({ description: 'ISO 4217 currency of every amount.' }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "currency", void 0);
__decorate([
    ApiProperty({ description: 'Total in minor units (cents): the sum of the lines.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceDto.prototype, "total_minor", void 0);
__decorate([
    ApiProperty({ description: 'Paid so far, net of refunds, in minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceDto.prototype, "paid_minor", void 0);
__decorate([
    ApiProperty({ description: 'Still owed in minor units (0 when cancelled).', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceDto.prototype, "balance_minor", void 0);
__decorate([
    ApiProperty({ description: 'Issue date, YYYY-MM-DD.', format: 'date' }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "issue_date", void 0);
__decorate([
    ApiProperty({ description: 'Due date, YYYY-MM-DD.', format: 'date' }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "due_date", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Notes printed on the invoice; null when none.', type: String, nullable: true }),
    __metadata("design:type", Object)
], InvoiceDto.prototype, "notes", void 0);
__decorate([
    ApiProperty({ description: 'Invoice lines in order.', type: [InvoiceLineDto] }),
    __metadata("design:type", Array)
], InvoiceDto.prototype, "lines", void 0);
__decorate([
    ApiProperty({ description: 'Payments against the invoice, summed up.', type: () => InvoicePaymentsSummaryDto }),
    __metadata("design:type", InvoicePaymentsSummaryDto)
], InvoiceDto.prototype, "payments", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Why it was cancelled; null unless cancelled.', type: String, nullable: true }),
    __metadata("design:type", Object)
], InvoiceDto.prototype, "cancel_reason", void 0);
__decorate([
    ApiPropertyOptional({ description: 'When it was cancelled, ISO 8601; null unless cancelled.', type: String, nullable: true, format: 'date-time' }),
    __metadata("design:type", Object)
], InvoiceDto.prototype, "cancelled_at", void 0);
__decorate([
    ApiProperty({ description: 'Channel that created the invoice: mcp, api or panel.', enum: CHANNELS }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "created_via", void 0);
__decorate([
    ApiProperty({ description: 'Channel of the last change.', enum: CHANNELS }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "updated_via", void 0);
__decorate([
    ApiProperty({ description: 'Creation time, ISO 8601.', format: 'date-time' }),
    __metadata("design:type", String)
], InvoiceDto.prototype, "created_at", void 0);
//# sourceMappingURL=invoice-output.dto.js.map