import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { CHANNELS } from '../common/channels.js';
import { IdempotencyKey } from '../common/idempotency-key.js';
import { NextCursor, PageCursor, PageLimit } from '../common/paging.js';
import { WorkspaceScopedDto } from '../../identity/workspace-scoped.dto.js';

export class CreateCustomerDto extends WorkspaceScopedDto {
  @ApiProperty({ description: 'Legal or trade name of the customer.', example: 'Acme Logistics S.A. de C.V.' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ description: 'Billing email; unique within the workspace.', example: 'billing@acme.example' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiPropertyOptional({ description: 'Tax id (RFC, VAT number…), as printed on invoices.', example: 'ACM010101ABC' })
  @IsOptional()
  @IsString()
  @Length(3, 32)
  tax_id?: string;

  /** A retry after a timeout must not fail on the unique email: with a key it gets the first answer. */
  @IdempotencyKey({ optional: true })
  idempotency_key?: string;
}

export class CustomerIdDto extends WorkspaceScopedDto {
  @ApiProperty({ description: 'Customer id (UUID).' })
  @IsUUID()
  customer_id: string;
}

export class CustomerDto {
  @ApiProperty({ description: 'Customer id (UUID).' })
  id: string;

  @ApiProperty({ description: 'Customer name.' })
  name: string;

  @ApiProperty({ description: 'Billing email.' })
  email: string;

  @ApiPropertyOptional({ description: 'Tax id, when known.', type: String, nullable: true })
  tax_id?: string | null;

  @ApiProperty({ description: 'Channel that created the record: mcp, api or panel.', enum: CHANNELS })
  created_via: string;

  @ApiProperty({ description: 'Channel of the last update.', enum: CHANNELS })
  updated_via: string;

  @ApiProperty({ description: 'Creation time, ISO 8601.', format: 'date-time' })
  created_at: string;
}

export class CustomerListQueryDto extends WorkspaceScopedDto {
  @ApiPropertyOptional({ description: 'Text to find in the name or email (case-insensitive).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class CustomerListDto {
  @ApiProperty({ description: 'Customers, by name.', type: [CustomerDto] })
  items: CustomerDto[];

  @NextCursor()
  next_cursor: string | null;
}
