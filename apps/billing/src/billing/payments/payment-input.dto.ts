import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEnum,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IdempotencyKey } from '../common/idempotency-key.js';
import { CURRENCY_PATTERN, MAX_AMOUNT_MINOR } from '../common/money.js';
import { PageCursor, PageLimit } from '../common/paging.js';
import { WorkspaceScopedDto } from '../../identity/workspace-scoped.dto.js';
import { PAYMENT_METHODS, type PaymentMethodName } from './payment-method.js';

export class TrackingKeyCandidateDto {
  @ApiProperty({
    description: 'The candidate tracking key exactly as read (e.g. a SPEI clave de rastreo).',
    example: '260604017724349474I',
  })
  @Length(1, 100, { message: 'value must be 1–100 characters: the tracking key as read from the evidence' })
  @IsString({ message: 'value must be a string: the tracking key as read from the evidence' })
  value: string;

  @ApiProperty({ description: 'Where the candidate was read: ocr, email, user, or another short label.', example: 'ocr' })
  @Length(1, 50, { message: 'source must be 1–50 characters naming where the value was read: ocr, email, user…' })
  @IsString({ message: 'source must be a string naming where the value was read: ocr, email, user…' })
  source: string;

  @ApiProperty({
    description: 'How sure you are that this is the tracking key: a number from 0 to 1 (0.8 or more counts as sure).',
    example: 0.95,
  })
  @Min(0, { message: 'confidence must be a number from 0 to 1 (e.g. 0.95)' })
  @Max(1, { message: 'confidence must be a number from 0 to 1 (e.g. 0.95); rescale percentages (95 → 0.95)' })
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'confidence must be a number from 0 to 1 (e.g. 0.95), not a word like "high"' },
  )
  confidence: number;
}

export class PaymentEvidenceDto {
  @ApiProperty({
    description:
      'Everything extracted from the receipt, email or message, as a JSON object (keys and values as read), e.g. {"monto": "$350.00", "banco_destino": "BBVA"}.',
    type: 'object',
    additionalProperties: true,
  })
  @IsObject({ message: 'raw_extracted must be a JSON object (e.g. {"monto": "$350.00"}), not a string containing JSON' })
  raw_extracted: Record<string, unknown>;

  @ApiProperty({
    description:
      'Candidate bank tracking keys found in the evidence, each with its source and a confidence from 0 to 1. An empty array when none was found.',
    type: [TrackingKeyCandidateDto],
  })
  @ArrayMaxSize(20, { message: 'tracking_key_candidates must be an array of at most 20 candidates; keep the most likely ones' })
  @ValidateNested({ each: true, message: 'tracking_key_candidates must be an array of {value, source, confidence} objects' })
  @Type(() => TrackingKeyCandidateDto)
  @IsArray({ message: 'tracking_key_candidates must be an array of {value, source, confidence} objects, not a string containing JSON' })
  tracking_key_candidates: TrackingKeyCandidateDto[];
}

export class RegisterPaymentDto extends WorkspaceScopedDto {
  @ApiProperty({ description: 'Id (UUID) of the invoice being paid, in this workspace.', format: 'uuid' })
  @IsUUID('all', { message: 'invoice_id must be the invoice UUID (e.g. 3f2b…-…); look the invoice up first if you only have its number' })
  invoice_id: string;

  @ApiProperty({
    description: 'Amount paid, in minor units (cents) of the invoice currency: 350.00 → 35000. At most the outstanding balance.',
    example: 35000,
  })
  @Min(1, { message: 'amount_minor must be greater than 0 (minor units: 350.00 → 35000)' })
  @Max(MAX_AMOUNT_MINOR, { message: `amount_minor must be at most ${MAX_AMOUNT_MINOR}` })
  @IsInt({ message: 'amount_minor must be an integer number of minor units (cents): 350.00 → 35000' })
  amount_minor: number;

  @ApiPropertyOptional({
    description: 'ISO 4217 currency of the amount, e.g. MXN. Optional; when given it must be the invoice currency.',
    example: 'MXN',
  })
  @IsOptional()
  @Matches(CURRENCY_PATTERN, { message: 'currency must be a 3-letter uppercase ISO 4217 code, e.g. MXN' })
  currency?: string;

  @ApiProperty({ description: 'How the money was paid.', enum: PAYMENT_METHODS })
  @IsEnum(PAYMENT_METHODS, { message: `method must be one of: ${PAYMENT_METHODS.join(', ')}` })
  method: PaymentMethodName;

  @ApiPropertyOptional({
    description: 'When the money was paid, ISO 8601 (2026-05-01 or 2026-05-01T14:30:00Z). Default: now. Not in the future.',
    format: 'date-time',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'paid_at must be an ISO 8601 date or date-time, e.g. 2026-05-01 or 2026-05-01T14:30:00Z' })
  paid_at?: string;

  @ApiPropertyOptional({
    description:
      'Bank tracking key or reference of the payment, confirmed by the user or read unambiguously. Omit it to let the server pick ' +
      'the tracking key from evidence.tracking_key_candidates.',
    example: '260604017724349474I',
  })
  @IsOptional()
  @Length(1, 100, { message: 'reference must be 1–100 characters: the bank tracking key or reference' })
  @IsString({ message: 'reference must be a string: the bank tracking key or reference' })
  reference?: string;

  @ApiProperty({
    description:
      'What you extracted from the payment evidence: a real JSON object with raw_extracted (object) and tracking_key_candidates (array).',
    type: PaymentEvidenceDto,
  })
  @ValidateNested({ message: 'evidence must be a JSON object {"raw_extracted": {...}, "tracking_key_candidates": [...]}' })
  @Type(() => PaymentEvidenceDto)
  @IsObject({
    message: 'evidence must be a JSON object {"raw_extracted": {...}, "tracking_key_candidates": [...]}, not a string containing JSON',
  })
  evidence: PaymentEvidenceDto;

  @IdempotencyKey({ example: 'pay-7d1c2a9e-2f4b-4c71' })
  idempotency_key: string;
}

/** Fields of a refund request other than the payment it refunds. */
class RefundFieldsDto extends WorkspaceScopedDto {
  @ApiPropertyOptional({
    description: 'Amount to refund in minor units (cents). Omit it to refund everything still refundable on the payment.',
    example: 10000,
  })
  @IsOptional()
  @Min(1, { message: 'amount_minor must be greater than 0; omit it to refund the whole refundable amount' })
  @Max(MAX_AMOUNT_MINOR, { message: `amount_minor must be at most ${MAX_AMOUNT_MINOR}` })
  @IsInt({ message: 'amount_minor must be an integer number of minor units (cents): 100.00 → 10000' })
  amount_minor?: number;

  @ApiProperty({
    description: 'Why the money is returned, 5–500 characters; kept with the refund.',
    example: 'Duplicate transfer from the customer',
  })
  @Length(5, 500, { message: 'reason must be 5–500 characters saying why the money is returned' })
  @IsString({ message: 'reason must be a sentence (5–500 characters) saying why the money is returned' })
  reason: string;

  @IdempotencyKey({ example: 'refund-5b0e9c1d-88aa' })
  idempotency_key: string;
}

/**
 * REST body of `POST /v1/payments/:payment_id/refunds`; the payment is in the path. The MCP tool
 * runs this same handler with `payment_id` among its arguments: the layer hands it to
 * `@Param('payment_id')` and keeps it out of `@Body()`.
 */
export class RefundPaymentDto extends RefundFieldsDto {}

/** Arguments of the MCP tool `billing_payment_refund`: the refund fields and the payment. */
export class RefundPaymentToolDto extends RefundFieldsDto {
  @ApiProperty({
    description: 'Id (UUID) of the payment to refund, as returned by billing_payment_register (data.payment.id).',
    format: 'uuid',
  })
  @IsUUID('all', { message: 'payment_id must be the payment UUID returned when the payment was registered' })
  payment_id: string;
}

export class PaymentListQueryDto extends WorkspaceScopedDto {
  @ApiPropertyOptional({ description: 'Only payments of this invoice (UUID).', format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'invoice_id must be an invoice UUID' })
  invoice_id?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}
