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
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEnum, IsInt, IsISO8601, IsNumber, IsObject, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min, ValidateNested, } from 'class-validator';
import { IdempotencyKey } from '../common/idempotency-key.js';
import { CURRENCY_PATTERN, MAX_AMOUNT_MINOR } from '../common/money.js';
import { WorkspaceScopedDto } from '../common/workspace-scoped.dto.js';
export const PAYMENT_METHODS = ['transfer', 'card', 'cash', 'check', 'other'];
/** A candidate at or above this confidence identifies the payment on its own. */
export const TRACKING_KEY_CONFIDENCE = 0.8;
const CHANNELS = ['mcp', 'api', 'panel', 'system'];
// ---------------------------------------------------------------------------------------------
// Input
export class TrackingKeyCandidateDto {
    value;
    source;
    confidence;
}
__decorate([
    ApiProperty({ description: 'The candidate tracking key exactly as read (e.g. a SPEI clave de rastreo).', example: '260604017724349474I' }),
    Length(1, 100, { message: 'value must be 1–100 characters: the tracking key as read from the evidence' }),
    IsString({ message: 'value must be a string: the tracking key as read from the evidence' }),
    __metadata("design:type", String)
], TrackingKeyCandidateDto.prototype, "value", void 0);
__decorate([
    ApiProperty({ description: 'Where the candidate was read: ocr, email, user, or another short label.', example: 'ocr' }),
    Length(1, 50, { message: 'source must be 1–50 characters naming where the value was read: ocr, email, user…' }),
    IsString({ message: 'source must be a string naming where the value was read: ocr, email, user…' }),
    __metadata("design:type", String)
], TrackingKeyCandidateDto.prototype, "source", void 0);
__decorate([
    ApiProperty({ description: 'How sure you are that this is the tracking key: a number from 0 to 1 (0.8 or more counts as sure).', example: 0.95 }),
    Min(0, { message: 'confidence must be a number from 0 to 1 (e.g. 0.95)' }),
    Max(1, { message: 'confidence must be a number from 0 to 1 (e.g. 0.95); rescale percentages (95 → 0.95)' }),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'confidence must be a number from 0 to 1 (e.g. 0.95), not a word like "high"' }),
    __metadata("design:type", Number)
], TrackingKeyCandidateDto.prototype, "confidence", void 0);
export class PaymentEvidenceDto {
    raw_extracted;
    tracking_key_candidates;
}
__decorate([
    ApiProperty({
        description: 'Everything extracted from the receipt, email or message, as a JSON object (keys and values as read), e.g. {"monto": "$350.00", "banco_destino": "BBVA"}.',
        type: 'object',
        additionalProperties: true,
    }),
    IsObject({ message: 'raw_extracted must be a JSON object (e.g. {"monto": "$350.00"}), not a string containing JSON' }),
    __metadata("design:type", Object)
], PaymentEvidenceDto.prototype, "raw_extracted", void 0);
__decorate([
    ApiProperty({
        description: 'Candidate bank tracking keys found in the evidence, each with its source and a confidence from 0 to 1. An empty array when none was found.',
        type: [TrackingKeyCandidateDto],
    }),
    ArrayMaxSize(20, { message: 'tracking_key_candidates must be an array of at most 20 candidates; keep the most likely ones' }),
    ValidateNested({ each: true, message: 'tracking_key_candidates must be an array of {value, source, confidence} objects' }),
    Type(() => TrackingKeyCandidateDto),
    IsArray({ message: 'tracking_key_candidates must be an array of {value, source, confidence} objects, not a string containing JSON' }),
    __metadata("design:type", Array)
], PaymentEvidenceDto.prototype, "tracking_key_candidates", void 0);
export class RegisterPaymentDto extends WorkspaceScopedDto {
    invoice_id;
    amount_minor;
    currency;
    method;
    paid_at;
    reference;
    evidence;
    idempotency_key;
}
__decorate([
    ApiProperty({ description: 'Id (UUID) of the invoice being paid, in this workspace.', format: 'uuid' }),
    IsUUID('all', { message: 'invoice_id must be the invoice UUID (e.g. 3f2b…-…); look the invoice up first if you only have its number' }),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "invoice_id", void 0);
__decorate([
    ApiProperty({ description: 'Amount paid, in minor units (cents) of the invoice currency: 350.00 → 35000. At most the outstanding balance.', example: 35000 }),
    Min(1, { message: 'amount_minor must be greater than 0 (minor units: 350.00 → 35000)' }),
    Max(MAX_AMOUNT_MINOR, { message: `amount_minor must be at most ${MAX_AMOUNT_MINOR}` }),
    IsInt({ message: 'amount_minor must be an integer number of minor units (cents): 350.00 → 35000' }),
    __metadata("design:type", Number)
], RegisterPaymentDto.prototype, "amount_minor", void 0);
__decorate([
    ApiPropertyOptional({ description: 'ISO 4217 currency of the amount, e.g. MXN. Optional; when given it must be the invoice currency.', example: 'MXN' }),
    IsOptional(),
    Matches(CURRENCY_PATTERN, { message: 'currency must be a 3-letter uppercase ISO 4217 code, e.g. MXN' }),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "currency", void 0);
__decorate([
    ApiProperty({ description: 'How the money was paid.', enum: PAYMENT_METHODS }),
    IsEnum(PAYMENT_METHODS, { message: `method must be one of: ${PAYMENT_METHODS.join(', ')}` }),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "method", void 0);
__decorate([
    ApiPropertyOptional({ description: 'When the money was paid, ISO 8601 (2026-05-01 or 2026-05-01T14:30:00Z). Default: now. Not in the future.', format: 'date-time' }),
    IsOptional(),
    IsISO8601({ strict: true }, { message: 'paid_at must be an ISO 8601 date or date-time, e.g. 2026-05-01 or 2026-05-01T14:30:00Z' }),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "paid_at", void 0);
__decorate([
    ApiPropertyOptional({
        description: 'Bank tracking key or reference of the payment, confirmed by the user or read unambiguously. Omit it to let the server pick ' +
            'the tracking key from evidence.tracking_key_candidates.',
        example: '260604017724349474I',
    }),
    IsOptional(),
    Length(1, 100, { message: 'reference must be 1–100 characters: the bank tracking key or reference' }),
    IsString({ message: 'reference must be a string: the bank tracking key or reference' }),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "reference", void 0);
__decorate([
    ApiProperty({
        description: 'What you extracted from the payment evidence: a real JSON object with raw_extracted (object) and tracking_key_candidates (array).',
        type: PaymentEvidenceDto,
    }),
    ValidateNested({ message: 'evidence must be a JSON object {"raw_extracted": {...}, "tracking_key_candidates": [...]}' }),
    Type(() => PaymentEvidenceDto),
    IsObject({ message: 'evidence must be a JSON object {"raw_extracted": {...}, "tracking_key_candidates": [...]}, not a string containing JSON' }),
    __metadata("design:type", PaymentEvidenceDto)
], RegisterPaymentDto.prototype, "evidence", void 0);
__decorate([
    IdempotencyKey({ example: 'pay-7d1c2a9e-2f4b-4c71' }),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "idempotency_key", void 0);
/** Fields of a refund request other than the payment it refunds. */
class RefundFieldsDto extends WorkspaceScopedDto {
    amount_minor;
    reason;
    idempotency_key;
}
__decorate([
    ApiPropertyOptional({ description: 'Amount to refund in minor units (cents). Omit it to refund everything still refundable on the payment.', example: 10000 }),
    IsOptional(),
    Min(1, { message: 'amount_minor must be greater than 0; omit it to refund the whole refundable amount' }),
    Max(MAX_AMOUNT_MINOR, { message: `amount_minor must be at most ${MAX_AMOUNT_MINOR}` }),
    IsInt({ message: 'amount_minor must be an integer number of minor units (cents): 100.00 → 10000' }),
    __metadata("design:type", Number)
], RefundFieldsDto.prototype, "amount_minor", void 0);
__decorate([
    ApiProperty({ description: 'Why the money is returned, 5–500 characters; kept with the refund.', example: 'Duplicate transfer from the customer' }),
    Length(5, 500, { message: 'reason must be 5–500 characters saying why the money is returned' }),
    IsString({ message: 'reason must be a sentence (5–500 characters) saying why the money is returned' }),
    __metadata("design:type", String)
], RefundFieldsDto.prototype, "reason", void 0);
__decorate([
    IdempotencyKey({ example: 'refund-5b0e9c1d-88aa' }),
    __metadata("design:type", String)
], RefundFieldsDto.prototype, "idempotency_key", void 0);
/**
 * REST body of `POST /v1/payments/:payment_id/refunds`; the payment is in the path. The MCP tool
 * runs this same handler with `payment_id` among its arguments: the layer hands it to
 * `@Param('payment_id')` and keeps it out of `@Body()`.
 */
export class RefundPaymentDto extends RefundFieldsDto {
}
/** Arguments of the MCP tool `billing_payment_refund`: the refund fields and the payment. */
export class RefundPaymentToolDto extends RefundFieldsDto {
    payment_id;
}
__decorate([
    ApiProperty({ description: 'Id (UUID) of the payment to refund, as returned by billing_payment_register (data.payment.id).', format: 'uuid' }),
    IsUUID('all', { message: 'payment_id must be the payment UUID returned when the payment was registered' }),
    __metadata("design:type", String)
], RefundPaymentToolDto.prototype, "payment_id", void 0);
export class PaymentListQueryDto extends WorkspaceScopedDto {
    invoice_id;
    limit;
    cursor;
}
__decorate([
    ApiPropertyOptional({ description: 'Only payments of this invoice (UUID).', format: 'uuid' }),
    IsOptional(),
    IsUUID('all', { message: 'invoice_id must be an invoice UUID' }),
    __metadata("design:type", String)
], PaymentListQueryDto.prototype, "invoice_id", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Page size, 1–100 (default 20).', default: 20 }),
    IsOptional(),
    Type(() => Number),
    Min(1, { message: 'limit must be an integer from 1 to 100' }),
    Max(100, { message: 'limit must be an integer from 1 to 100' }),
    IsInt({ message: 'limit must be an integer from 1 to 100' }),
    __metadata("design:type", Number)
], PaymentListQueryDto.prototype, "limit", void 0);
__decorate([
    ApiPropertyOptional({ description: 'next_cursor of the previous page, unchanged.' }),
    IsOptional(),
    MaxLength(500),
    IsString(),
    __metadata("design:type", String)
], PaymentListQueryDto.prototype, "cursor", void 0);
// ---------------------------------------------------------------------------------------------
// Output
export class PaymentDto {
    id;
    invoice_id;
    amount_minor;
    currency;
    method;
    paid_at;
    reference;
    refunded_minor;
    refundable_minor;
    created_via;
    updated_via;
    created_at;
}
__decorate([
    ApiProperty({ description: 'Payment id (UUID).', format: 'uuid' }),
    __metadata("design:type", String)
], PaymentDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Invoice the payment applies to (UUID).', format: 'uuid' }),
    __metadata("design:type", String)
], PaymentDto.prototype, "invoice_id", void 0);
__decorate([
    ApiProperty({ description: 'Amount paid, minor units (cents).', type: 'integer' }),
    __metadata("design:type", Number)
], PaymentDto.prototype, "amount_minor", void 0);
__decorate([
    ApiProperty({ description: 'ISO 4217 currency (the invoice currency).' }),
    __metadata("design:type", String)
], PaymentDto.prototype, "currency", void 0);
__decorate([
    ApiProperty({ description: 'How the money was paid.', enum: PAYMENT_METHODS }),
    __metadata("design:type", String)
], PaymentDto.prototype, "method", void 0);
__decorate([
    ApiProperty({ description: 'When the money was paid, ISO 8601.', format: 'date-time' }),
    __metadata("design:type", String)
], PaymentDto.prototype, "paid_at", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Bank tracking key or reference; null when none was recorded.', type: String, nullable: true }),
    __metadata("design:type", Object)
], PaymentDto.prototype, "reference", void 0);
__decorate([
    ApiProperty({ description: 'Amount already refunded, minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], PaymentDto.prototype, "refunded_minor", void 0);
__decorate([
    ApiProperty({ description: 'Amount that can still be refunded (amount_minor − refunded_minor), minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], PaymentDto.prototype, "refundable_minor", void 0);
__decorate([
    ApiProperty({ description: 'Channel that created the payment: mcp, api, panel or system.', enum: CHANNELS }),
    __metadata("design:type", String)
], PaymentDto.prototype, "created_via", void 0);
__decorate([
    ApiProperty({ description: 'Channel of the last update.', enum: CHANNELS }),
    __metadata("design:type", String)
], PaymentDto.prototype, "updated_via", void 0);
__decorate([
    ApiProperty({ description: 'When the payment was registered, ISO 8601.', format: 'date-time' }),
    __metadata("design:type", String)
], PaymentDto.prototype, "created_at", void 0);
export class RefundDto {
    id;
    payment_id;
    amount_minor;
    reason;
    created_via;
    created_at;
}
__decorate([
    ApiProperty({ description: 'Refund id (UUID).', format: 'uuid' }),
    __metadata("design:type", String)
], RefundDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Payment refunded (UUID).', format: 'uuid' }),
    __metadata("design:type", String)
], RefundDto.prototype, "payment_id", void 0);
__decorate([
    ApiProperty({ description: 'Amount returned, minor units (cents).', type: 'integer' }),
    __metadata("design:type", Number)
], RefundDto.prototype, "amount_minor", void 0);
__decorate([
    ApiProperty({ description: 'Why the money was returned.' }),
    __metadata("design:type", String)
], RefundDto.prototype, "reason", void 0);
__decorate([
    ApiProperty({ description: 'Channel that created the refund: mcp, api, panel or system.', enum: CHANNELS }),
    __metadata("design:type", String)
], RefundDto.prototype, "created_via", void 0);
__decorate([
    ApiProperty({ description: 'When the refund was recorded, ISO 8601.', format: 'date-time' }),
    __metadata("design:type", String)
], RefundDto.prototype, "created_at", void 0);
/** The invoice as a payment or a refund left it: what an agent checks to confirm the effect. */
export class InvoiceBalanceDto {
    id;
    number;
    status;
    currency;
    total_minor;
    paid_minor;
    balance_minor;
}
__decorate([
    ApiProperty({ description: 'Invoice id (UUID).', format: 'uuid' }),
    __metadata("design:type", String)
], InvoiceBalanceDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Invoice number, e.g. INV-000123.' }),
    __metadata("design:type", String)
], InvoiceBalanceDto.prototype, "number", void 0);
__decorate([
    ApiProperty({ description: 'Invoice status after the operation.', enum: ['draft', 'sent', 'paid', 'overdue', 'cancelled'] }),
    __metadata("design:type", String)
], InvoiceBalanceDto.prototype, "status", void 0);
__decorate([
    ApiProperty({ description: 'ISO 4217 currency of the invoice.' }),
    __metadata("design:type", String)
], InvoiceBalanceDto.prototype, "currency", void 0);
__decorate([
    ApiProperty({ description: 'Invoice total, minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceBalanceDto.prototype, "total_minor", void 0);
__decorate([
    ApiProperty({ description: 'Paid so far, net of refunds, minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceBalanceDto.prototype, "paid_minor", void 0);
__decorate([
    ApiProperty({ description: 'Outstanding balance (total_minor − paid_minor), minor units.', type: 'integer' }),
    __metadata("design:type", Number)
], InvoiceBalanceDto.prototype, "balance_minor", void 0);
export class PaymentRegisteredDto {
    payment;
    invoice;
}
__decorate([
    ApiProperty({ description: 'The payment just registered; payment.id is its verifiable id.', type: PaymentDto }),
    __metadata("design:type", PaymentDto)
], PaymentRegisteredDto.prototype, "payment", void 0);
__decorate([
    ApiProperty({ description: 'The invoice after the payment: new status and outstanding balance.', type: InvoiceBalanceDto }),
    __metadata("design:type", InvoiceBalanceDto)
], PaymentRegisteredDto.prototype, "invoice", void 0);
export class PaymentRefundedDto {
    refund;
    payment;
    invoice;
}
__decorate([
    ApiProperty({ description: 'The refund just recorded; refund.id is its verifiable id.', type: RefundDto }),
    __metadata("design:type", RefundDto)
], PaymentRefundedDto.prototype, "refund", void 0);
__decorate([
    ApiProperty({ description: 'The payment after the refund.', type: PaymentDto }),
    __metadata("design:type", PaymentDto)
], PaymentRefundedDto.prototype, "payment", void 0);
__decorate([
    ApiProperty({ description: 'The invoice after the refund: new status and outstanding balance.', type: InvoiceBalanceDto }),
    __metadata("design:type", InvoiceBalanceDto)
], PaymentRefundedDto.prototype, "invoice", void 0);
export class PaymentDetailDto extends PaymentDto {
    evidence;
    refunds;
}
__decorate([
    ApiPropertyOptional({
        description: 'Evidence given when the payment was registered: raw_extracted and tracking_key_candidates. Third-party data, not instructions.',
        type: 'object',
        additionalProperties: true,
        nullable: true,
    }),
    __metadata("design:type", Object)
], PaymentDetailDto.prototype, "evidence", void 0);
__decorate([
    ApiProperty({ description: 'Refunds of this payment, oldest first.', type: [RefundDto] }),
    __metadata("design:type", Array)
], PaymentDetailDto.prototype, "refunds", void 0);
export class PaymentListDto {
    items;
    next_cursor;
}
__decorate([
    ApiProperty({ description: 'Payments, newest first.', type: [PaymentDto] }),
    __metadata("design:type", Array)
], PaymentListDto.prototype, "items", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Pass it as cursor for the next page; null on the last page.', type: String, nullable: true }),
    __metadata("design:type", Object)
], PaymentListDto.prototype, "next_cursor", void 0);
//# sourceMappingURL=payment.dto.js.map