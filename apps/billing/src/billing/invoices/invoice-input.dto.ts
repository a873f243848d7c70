import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { CURRENCY_PATTERN, MAX_AMOUNT_MINOR } from '../common/money.js';
import { WorkspaceScopedDto } from '../../identity/workspace-scoped.dto.js';
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
] as const;
export type InvoiceSummaryField = (typeof INVOICE_SUMMARY_FIELDS)[number];

/** `fields=a,b` (one query parameter), `fields=a&fields=b` (repeated) or a JSON array (MCP). */
function splitList({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export class SearchInvoicesDto extends WorkspaceScopedDto {
  @ApiPropertyOptional({
    description: 'Only invoices in this status. `overdue` = sent and past its due date (computed on read, never stored by this API).',
    enum: INVOICE_STATUSES,
  })
  @IsOptional()
  @IsIn(INVOICE_STATUSES)
  status?: (typeof INVOICE_STATUSES)[number];

  @ApiPropertyOptional({ description: 'Only invoices of this customer (customer id, UUID).' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;

  @ApiPropertyOptional({
    description: 'Only invoices of the customer with this billing email (exact, case-insensitive).',
    example: 'billing@acme.example',
  })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  customer_email?: string;

  @ApiPropertyOptional({ description: 'Issued on or after this day, YYYY-MM-DD.', format: 'date', example: '2026-01-01' })
  @IsOptional()
  @IsIsoDate()
  issued_from?: string;

  @ApiPropertyOptional({ description: 'Issued on or before this day, YYYY-MM-DD (inclusive).', format: 'date', example: '2026-03-31' })
  @IsOptional()
  @IsIsoDate()
  @IsOnOrAfter('issued_from')
  issued_to?: string;

  @ApiPropertyOptional({ description: 'Due strictly before this day, YYYY-MM-DD.', format: 'date', example: '2026-04-01' })
  @IsOptional()
  @IsIsoDate()
  due_before?: string;

  @ApiPropertyOptional({
    description: `How many invoices to return, 1–${SEARCH_MAX_LIMIT} (default ${SEARCH_DEFAULT_LIMIT}). Prefer narrowing filters over paging.`,
    default: SEARCH_DEFAULT_LIMIT,
    minimum: 1,
    maximum: SEARCH_MAX_LIMIT,
  })
  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(SEARCH_MAX_LIMIT)
  @IsInt() // last, so that its message comes first
  limit?: number;

  @ApiPropertyOptional({
    description: 'next_cursor from the previous page, unchanged, to read the following page; omit it for the first page.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @ApiPropertyOptional({
    description:
      'Return only these item fields (id is always included), to keep the answer small. ' +
      `Allowed: ${INVOICE_SUMMARY_FIELDS.join(', ')}. Over REST also as one comma-separated value.`,
    type: [String],
    enum: INVOICE_SUMMARY_FIELDS,
    example: ['number', 'status', 'balance_minor'],
  })
  @IsOptional()
  @Transform(splitList)
  @IsIn(INVOICE_SUMMARY_FIELDS, { each: true })
  @ArraySize(1, INVOICE_SUMMARY_FIELDS.length, 'field names')
  @IsArray()
  fields?: InvoiceSummaryField[];
}

export class InvoiceLineInputDto {
  @ApiProperty({ description: 'What is billed on this line, as printed on the invoice.', example: 'Consulting, March 2026' })
  @Length(1, 500)
  @IsString()
  description: string;

  @ApiProperty({ description: 'How many units: an integer, 1–1,000,000.', example: 3 })
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  quantity: number;

  @ApiProperty({ description: 'Price of one unit in minor units (cents) of the invoice currency: 1250.00 MXN is 125000.', example: 125000 })
  @Min(0)
  @Max(MAX_AMOUNT_MINOR)
  @IsInt()
  unit_price_minor: number;
}

export class CreateInvoiceDto extends WorkspaceScopedDto {
  @ApiProperty({ description: 'Customer to bill (customer id, UUID). The customer must exist in this workspace.' })
  @IsUUID()
  customer_id: string;

  @ApiProperty({ description: 'ISO 4217 currency code, three capital letters.', example: 'MXN' })
  @Matches(CURRENCY_PATTERN, { message: '$property must be an ISO 4217 code of three capital letters, e.g. MXN or USD' })
  currency: string;

  @ApiPropertyOptional({ description: 'Issue date, YYYY-MM-DD; defaults to today (UTC).', format: 'date', example: '2026-03-01' })
  @IsOptional()
  @IsIsoDate()
  issue_date?: string;

  @ApiProperty({ description: 'Due date, YYYY-MM-DD, on or after the issue date.', format: 'date', example: '2026-03-31' })
  @IsIsoDate()
  @IsOnOrAfter('issue_date', { todayWhenMissing: true })
  due_date: string;

  @ApiProperty({ description: `Invoice lines, 1–${MAX_LINES}; the total is computed from them.`, type: [InvoiceLineInputDto] })
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineInputDto)
  @ArraySize(1, MAX_LINES, 'lines')
  @IsArray()
  lines: InvoiceLineInputDto[];

  @ApiPropertyOptional({ description: 'Free text printed on the invoice (payment instructions, PO number…).', example: 'PO 4411' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  notes?: string;

  @ApiPropertyOptional({
    description: '`sent` (default) issues the invoice to the customer; `draft` keeps it editable and unsent.',
    enum: ['draft', 'sent'],
    default: 'sent',
  })
  @IsOptional()
  @IsIn(['draft', 'sent'])
  status?: 'draft' | 'sent';

  @ApiPropertyOptional({
    description: 'Reuse the same key when you retry this call. 8–128 characters, unique per intended invoice.',
    example: 'inv-acme-2026-03',
  })
  @IsOptional()
  @IsString()
  @Length(8, 128)
  idempotency_key?: string;
}

export class UpdateInvoiceDto extends WorkspaceScopedDto {
  @ApiPropertyOptional({ description: 'New notes; an empty string clears them.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  notes?: string;

  @ApiPropertyOptional({ description: 'New due date, YYYY-MM-DD, on or after the issue date.', format: 'date' })
  @IsOptional()
  @IsIsoDate()
  due_date?: string;

  @ApiPropertyOptional({ description: 'Only `sent`: issues a draft invoice.', enum: ['sent'] })
  @IsOptional()
  @IsIn(['sent'])
  status?: 'sent';
}

/** The REST body of `POST /v1/invoices/:id/cancel`. */
export class CancelInvoiceBodyDto extends WorkspaceScopedDto {
  @ApiProperty({
    description: 'Why the invoice is cancelled, 5–500 characters; kept on the invoice.',
    example: 'Issued to the wrong customer',
  })
  @IsString()
  @Length(5, 500)
  reason: string;
}

/** The cancel operation: the REST path id and body together, or the MCP tool arguments. */
export class CancelInvoiceDto extends CancelInvoiceBodyDto {
  @ApiProperty({ description: 'Invoice to cancel (invoice id, UUID, as returned by billing_invoices_search).' })
  @IsUUID()
  invoice_id: string;
}
