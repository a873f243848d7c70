import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { IdempotencyKey } from '../common/idempotency-key.js';
import { WorkspaceScopedDto } from '../../identity/workspace-scoped.dto.js';
import { IsIsoDate, IsOnOrAfter } from '../invoices/invoice-validators.js';

/** What to export: a period of the workspace, or of one customer. */
export class StatementExportDto extends WorkspaceScopedDto {
  @ApiProperty({
    description: 'First day of the period, YYYY-MM-DD (inclusive): invoices issued and payments received from this day.',
    format: 'date',
    example: '2026-01-01',
  })
  @IsIsoDate()
  from: string;

  @ApiProperty({
    description: 'Last day of the period, YYYY-MM-DD (inclusive), on or after from.',
    format: 'date',
    example: '2026-12-31',
  })
  @IsIsoDate()
  @IsOnOrAfter('from')
  to: string;

  @ApiPropertyOptional({
    description:
      'Only this customer (customer id, UUID): their invoices and the payments of those invoices. Omit it for the whole workspace.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'customer_id must be a customer UUID, as returned by billing_customer_create or billing_invoices_search' })
  customer_id?: string;

  /** A retry of the request (a timeout, a lost answer) must not export twice: with a key it gets the same task or job. */
  @IdempotencyKey({ optional: true })
  idempotency_key?: string;
}

/** What the export stored: the file's metadata and what is in it; never its bytes. */
export class StatementExportResultDto {
  @ApiProperty({ description: 'The stored CSV file (attachment id, UUID): billing_attachment_download describes it.', format: 'uuid' })
  attachment_id: string;

  @ApiProperty({ description: 'File name of the statement, e.g. statement-demo-2026-01-01-2026-12-31.csv.' })
  filename: string;

  @ApiProperty({ description: 'MIME type of the file: text/csv (UTF-8, RFC 4180, CRLF line ends, one header row).' })
  content_type: string;

  @ApiProperty({ description: 'Size of the file in bytes.', type: 'integer' })
  size_bytes: number;

  @ApiProperty({ description: 'SHA-256 of the bytes, lowercase hex.' })
  sha256: string;

  @ApiProperty({
    description:
      'How many parts (about 1 MiB each, 128 KiB on the embedded database; whole CSV lines, the header in part 1) hold the file; the file is the parts joined in order.',
    type: 'integer',
  })
  parts: number;

  @ApiProperty({
    description:
      'The file as an MCP resource (billing://attachments/{id}), for a client without a REST token: read it with resources/read ' +
      'when parts is 1, else read <resource_uri>/parts/1 to <resource_uri>/parts/<parts> and join them in order. The tool ' +
      'result links to what to read (resource_link content).',
    example: 'billing://attachments/3f2b…',
  })
  resource_uri: string;

  @ApiProperty({ description: 'First day of the period (YYYY-MM-DD).', format: 'date' })
  from: string;

  @ApiProperty({ description: 'Last day of the period (YYYY-MM-DD).', format: 'date' })
  to: string;

  @ApiPropertyOptional({
    description: 'The customer the statement is limited to; null for the whole workspace.',
    type: String,
    nullable: true,
  })
  customer_id: string | null;

  @ApiProperty({ description: 'Rows with record_type "invoice": invoices issued in the period.', type: 'integer' })
  invoice_rows: number;

  @ApiProperty({ description: 'Rows with record_type "payment": payments received in the period.', type: 'integer' })
  payment_rows: number;

  @ApiProperty({ description: 'Rows written after the header: invoice_rows + payment_rows.', type: 'integer' })
  rows: number;

  @ApiProperty({
    description: 'The data as of this moment (ISO 8601): rows created after the export started are not in it.',
    format: 'date-time',
  })
  as_of: string;

  @ApiProperty({
    description: 'Path of the bytes on this server: GET it over REST with an API token (billing:read); an MCP client reads resource_uri.',
  })
  download_path: string;
}
