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
import { Transform, Type } from 'class-transformer';
import { IsArray, IsEmail, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min, ValidateNested, } from 'class-validator';
import { CURRENCY_PATTERN, MAX_AMOUNT_MINOR } from '../common/money.js';
import { WorkspaceScopedDto } from '../common/workspace-scoped.dto.js';
import { INVOICE_STATUSES } from './invoice-status.js';
import { ArraySize, IsIsoDate, IsOnOrAfter } from './invoice-validators.js';
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
export const MAX_LINES = 100;
/** Item fields `fields` may name; `id` is always returned. */
export const INVOICE_SUMMARY_FIELDS = [
    'id',
    'number',
    'customer',
    'status',
    'currency',
    'total_minor',
    'paid_minor',
    'balance_minor',
    'issue_date',
    'due_date',
];
/** `fields=a,b` (one query parameter), `fields=a&fields=b` (repeated) or a JSON array (MCP). */
function splitList({ value }) {
    if (typeof value !== 'string')
        return value;
    return value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
}
export class SearchInvoicesDto extends WorkspaceScopedDto {
    status;
    customer_id;
    customer_email;
    issued_from;
    issued_to;
    due_before;
    limit;
    cursor;
    fields;
}
__decorate([
    ApiPropertyOptional({
        description: 'Only invoices in this status. `overdue` = sent and past its due date (computed on read, never stored by this API).',
        enum: INVOICE_STATUSES,
    }),
    IsOptional(),
    IsIn(INVOICE_STATUSES),
    __metadata("design:type", Object)
], SearchInvoicesDto.prototype, "status", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Only invoices of this customer (customer id, UUID).' }),
    IsOptional(),
    IsUUID(),
    __metadata("design:type", String)
], SearchInvoicesDto.prototype, "customer_id", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Only invoices of the customer with this billing email (exact, case-insensitive).', example: 'billing@acme.example' }),
    IsOptional(),
    IsEmail(),
    MaxLength(254),
    __metadata("design:type", String)
], SearchInvoicesDto.prototype, "customer_email", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Issued on or after this day, YYYY-MM-DD.', format: 'date', example: '2026-01-01' }),
    IsOptional(),
    IsIsoDate(),
    __metadata("design:type", String)
], SearchInvoicesDto.prototype, "issued_from", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Issued on or before this day, YYYY-MM-DD (inclusive).', format: 'date', example: '2026-03-31' }),
    IsOptional(),
    IsIsoDate(),
    IsOnOrAfter('issued_from'),
    __metadata("design:type", String)
], SearchInvoicesDto.prototype, "issued_to", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Due strictly before this day, YYYY-MM-DD.', format: 'date', example: '2026-04-01' }),
    IsOptional(),
    IsIsoDate(),
    __metadata("design:type", String)
], SearchInvoicesDto.prototype, "due_before", void 0);
__decorate([
    ApiPropertyOptional({
        description: `How many invoices to return, 1–${SEARCH_MAX_LIMIT} (default ${SEARCH_DEFAULT_LIMIT}). Prefer narrowing filters over paging.`,
        default: SEARCH_DEFAULT_LIMIT,
        minimum: 1,
        maximum: SEARCH_MAX_LIMIT,
    }),
    IsOptional(),
    Type(() => Number),
    Min(1),
    Max(SEARCH_MAX_LIMIT),
    IsInt() // last, so that its message comes first
    ,
    __metadata("design:type", Number)
], SearchInvoicesDto.prototype, "limit", void 0);
__decorate([
    ApiPropertyOptional({ description: 'next_cursor from the previous page, unchanged, to read the following page; omit it for the first page.' }),
    IsOptional(),
    IsString(),
    MaxLength(512),
    __metadata("design:type", String)
], SearchInvoicesDto.prototype, "cursor", void 0);
__decorate([
    ApiPropertyOptional({
        description: 'Return only these item fields (id is always included), to keep the answer small. ' +
            `Allowed: ${INVOICE_SUMMARY_FIELDS.join(', ')}. Over REST also as one comma-separated value.`,
        type: [String],
        enum: INVOICE_SUMMARY_FIELDS,
        example: ['number', 'status', 'balance_minor'],
    }),
    IsOptional(),
    Transform(splitList),
    IsIn(INVOICE_SUMMARY_FIELDS, { each: true }),
    ArraySize(1, INVOICE_SUMMARY_FIELDS.length, 'field names'),
    IsArray(),
    __metadata("design:type", Array)
], SearchInvoicesDto.prototype, "fields", void 0);
export class InvoiceLineInputDto {
    description;
    quantity;
    unit_price_minor;
}
__decorate([
    ApiProperty({ description: 'What is billed on this line, as printed on the invoice.', example: 'Consulting, March 2026' }),
    Length(1, 500),
    IsString(),
    __metadata("design:type", String)
], InvoiceLineInputDto.prototype, "description", void 0);
__decorate([
    ApiProperty({ description: 'How many units: an integer, 1–1,000,000.', example: 3 }),
    Min(1),
    Max(1_000_000),
    IsInt(),
    __metadata("design:type", Number)
], InvoiceLineInputDto.prototype, "quantity", void 0);
__decorate([
    ApiProperty({ description: 'Price of one unit in minor units (cents) of the invoice currency: 1250.00 MXN is 125000.', example: 125000 }),
    Min(0),
    Max(MAX_AMOUNT_MINOR),
    IsInt(),
    __metadata("design:type", Number)
], InvoiceLineInputDto.prototype, "unit_price_minor", void 0);
export class CreateInvoiceDto extends WorkspaceScopedDto {
    customer_id;
    currency;
    issue_date;
    due_date;
    lines;
    notes;
    status;
    idempotency_key;
}
__decorate([
    ApiProperty({ description: 'Customer to bill (customer id, UUID). The customer must exist in this workspace.' }),
    IsUUID(),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "customer_id", void 0);
__decorate([
    ApiProperty({ description: 'ISO 4217 currency code, three capital letters.', example: 'MXN' }),
    Matches(CURRENCY_PATTERN, { message: '$property must be an ISO 4217 code of three capital letters, e.g. MXN or USD' }),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "currency", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Issue date, YYYY-MM-DD; defaults to today (UTC).', format: 'date', example: '2026-03-01' }),
    IsOptional(),
    IsIsoDate(),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "issue_date", void 0);
__decorate([
    ApiProperty({ description: 'Due date, YYYY-MM-DD, on or after the issue date.', format: 'date', example: '2026-03-31' }),
    IsIsoDate(),
    IsOnOrAfter('issue_date', { todayWhenMissing: true }),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "due_date", void 0);
__decorate([
    ApiProperty({ description: `Invoice lines, 1–${MAX_LINES}; the total is computed from them.`, type: [InvoiceLineInputDto] }),
    ValidateNested({ each: true }),
    Type(() => InvoiceLineInputDto),
    ArraySize(1, MAX_LINES, 'lines'),
    IsArray(),
    __metadata("design:type", Array)
], CreateInvoiceDto.prototype, "lines", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Free text printed on the invoice (payment instructions, PO number…).', example: 'PO 4411' }),
    IsOptional(),
    IsString(),
    MaxLength(2000),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "notes", void 0);
__decorate([
    ApiPropertyOptional({
        description: '`sent` (default) issues the invoice to the customer; `draft` keeps it editable and unsent.',
        enum: ['draft', 'sent'],
        default: 'sent',
    }),
    IsOptional(),
    IsIn(['draft', 'sent']),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "status", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Reuse the same key when you retry this call. 8–128 characters, unique per intended invoice.', example: 'inv-acme-2026-03' }),
    IsOptional(),
    IsString(),
    Length(8, 128),
    __metadata("design:type", String)
], CreateInvoiceDto.prototype, "idempotency_key", void 0);
export class UpdateInvoiceDto extends WorkspaceScopedDto {
    notes;
    due_date;
    status;
}
__decorate([
    ApiPropertyOptional({ description: 'New notes; an empty string clears them.' }),
    IsOptional(),
    IsString(),
    MaxLength(2000),
    __metadata("design:type", String)
], UpdateInvoiceDto.prototype, "notes", void 0);
__decorate([
    ApiPropertyOptional({ description: 'New due date, YYYY-MM-DD, on or after the issue date.', format: 'date' }),
    IsOptional(),
    IsIsoDate(),
    __metadata("design:type", String)
], UpdateInvoiceDto.prototype, "due_date", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Only `sent`: issues a draft invoice.', enum: ['sent'] }),
    IsOptional(),
    IsIn(['sent']),
    __metadata("design:type", String)
], UpdateInvoiceDto.prototype, "status", void 0);
/** The REST body of `POST /v1/invoices/:id/cancel`. */
export class CancelInvoiceBodyDto extends WorkspaceScopedDto {
    reason;
}
__decorate([
    ApiProperty({ description: 'Why the invoice is cancelled, 5–500 characters; kept on the invoice.', example: 'Issued to the wrong customer' }),
    IsString(),
    Length(5, 500),
    __metadata("design:type", String)
], CancelInvoiceBodyDto.prototype, "reason", void 0);
/** The cancel operation: the REST path id and body together, or the MCP tool arguments. */
export class CancelInvoiceDto extends CancelInvoiceBodyDto {
    invoice_id;
}
__decorate([
    ApiProperty({ description: 'Invoice to cancel (invoice id, UUID, as returned by billing_invoices_search).' }),
    IsUUID(),
    __metadata("design:type", String)
], CancelInvoiceDto.prototype, "invoice_id", void 0);
//# sourceMappingURL=invoice-input.dto.js.map