import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHANNELS } from '../common/channels.js';
import { NextCursor } from '../common/paging.js';
import { INVOICE_STATUSES } from './invoice-status.js';

const STATUS_DESCRIPTION = 'draft, sent, overdue (sent and past its due date, computed on read), paid or cancelled.';

export class InvoiceCustomerDto {
  @ApiProperty({ description: 'Customer id (UUID).' })
  id: string;

  @ApiProperty({ description: 'Customer name.' })
  name: string;

  @ApiProperty({ description: 'Customer billing email.' })
  email: string;
}

/** One search result: only what a model needs to reason about an invoice. */
export class InvoiceSummaryDto {
  @ApiProperty({ description: 'Invoice id (UUID): pass it to other invoice tools or read billing://invoices/{id}.' })
  id: string;

  @ApiPropertyOptional({ description: 'Human invoice number, e.g. INV-000123. Omitted when `fields` excludes it.' })
  number?: string;

  @ApiPropertyOptional({ description: 'Who is billed. Omitted when `fields` excludes it.', type: () => InvoiceCustomerDto })
  customer?: InvoiceCustomerDto;

  @ApiPropertyOptional({ description: `Status: ${STATUS_DESCRIPTION} Omitted when \`fields\` excludes it.`, enum: INVOICE_STATUSES })
  status?: string;

  @ApiPropertyOptional({ description: 'ISO 4217 currency of every amount. Omitted when `fields` excludes it.' })
  currency?: string;

  @ApiPropertyOptional({ description: 'Invoice total in minor units (cents). Omitted when `fields` excludes it.', type: 'integer' })
  total_minor?: number;

  @ApiPropertyOptional({ description: 'Paid so far, net of refunds, in minor units. Omitted when `fields` excludes it.', type: 'integer' })
  paid_minor?: number;

  @ApiPropertyOptional({ description: 'Still owed in minor units (0 when cancelled). Omitted when `fields` excludes it.', type: 'integer' })
  balance_minor?: number;

  @ApiPropertyOptional({ description: 'Issue date, YYYY-MM-DD. Omitted when `fields` excludes it.', format: 'date' })
  issue_date?: string;

  @ApiPropertyOptional({ description: 'Due date, YYYY-MM-DD. Omitted when `fields` excludes it.', format: 'date' })
  due_date?: string;
}

export class InvoiceSearchResultDto {
  @ApiProperty({ description: 'Matching invoices, newest issue date first (then by id).', type: [InvoiceSummaryDto] })
  items: InvoiceSummaryDto[];

  @NextCursor('Pass it back as `cursor` to read the next page; null on the last page.')
  next_cursor: string | null;

  @ApiProperty({ description: 'How many invoices match the filters in all (every page together).', type: 'integer' })
  total_matching: number;

  @ApiPropertyOptional({
    description: 'Present when far more invoices match than a few pages hold, or none do: how to narrow or widen the search.',
  })
  hint?: string;
}

export class InvoiceLineDto {
  @ApiProperty({ description: 'Line position, from 1.', type: 'integer' })
  position: number;

  @ApiProperty({ description: 'What is billed.' })
  description: string;

  @ApiProperty({ description: 'Units.', type: 'integer' })
  quantity: number;

  @ApiProperty({ description: 'Price of one unit in minor units.', type: 'integer' })
  unit_price_minor: number;

  @ApiProperty({ description: 'quantity × unit_price_minor, in minor units.', type: 'integer' })
  amount_minor: number;
}

export class InvoicePaymentsSummaryDto {
  @ApiProperty({ description: 'Payments recorded against the invoice.', type: 'integer' })
  count: number;

  @ApiProperty({ description: 'Sum of those payments in minor units, before refunds.', type: 'integer' })
  received_minor: number;

  @ApiProperty({ description: 'Refunded out of them, in minor units.', type: 'integer' })
  refunded_minor: number;

  @ApiPropertyOptional({
    description: 'When the last payment was made, ISO 8601; null without payments.',
    type: String,
    nullable: true,
    format: 'date-time',
  })
  last_paid_at: string | null;
}

/** One invoice in full: what create, cancel, `GET /v1/invoices/:id` and billing://invoices/{id} return. */
export class InvoiceDto {
  @ApiProperty({ description: 'Invoice id (UUID).' })
  id: string;

  @ApiProperty({ description: 'Human invoice number, sequential per workspace: INV-000123.' })
  number: string;

  @ApiProperty({ description: 'Who is billed.', type: () => InvoiceCustomerDto })
  customer: InvoiceCustomerDto;

  @ApiProperty({ description: `Status: ${STATUS_DESCRIPTION}`, enum: INVOICE_STATUSES })
  status: string;

  @ApiProperty({ description: 'ISO 4217 currency of every amount.' })
  currency: string;

  @ApiProperty({ description: 'Total in minor units (cents): the sum of the lines.', type: 'integer' })
  total_minor: number;

  @ApiProperty({ description: 'Paid so far, net of refunds, in minor units.', type: 'integer' })
  paid_minor: number;

  @ApiProperty({ description: 'Still owed in minor units (0 when cancelled).', type: 'integer' })
  balance_minor: number;

  @ApiProperty({ description: 'Issue date, YYYY-MM-DD.', format: 'date' })
  issue_date: string;

  @ApiProperty({ description: 'Due date, YYYY-MM-DD.', format: 'date' })
  due_date: string;

  @ApiPropertyOptional({ description: 'Notes printed on the invoice; null when none.', type: String, nullable: true })
  notes: string | null;

  @ApiProperty({ description: 'Invoice lines in order.', type: [InvoiceLineDto] })
  lines: InvoiceLineDto[];

  @ApiProperty({ description: 'Payments against the invoice, summed up.', type: () => InvoicePaymentsSummaryDto })
  payments: InvoicePaymentsSummaryDto;

  @ApiPropertyOptional({ description: 'Why it was cancelled; null unless cancelled.', type: String, nullable: true })
  cancel_reason: string | null;

  @ApiPropertyOptional({
    description: 'When it was cancelled, ISO 8601; null unless cancelled.',
    type: String,
    nullable: true,
    format: 'date-time',
  })
  cancelled_at: string | null;

  @ApiProperty({ description: 'Channel that created the invoice: mcp, api or panel.', enum: CHANNELS })
  created_via: string;

  @ApiProperty({ description: 'Channel of the last change.', enum: CHANNELS })
  updated_via: string;

  @ApiProperty({ description: 'Creation time, ISO 8601.', format: 'date-time' })
  created_at: string;
}
