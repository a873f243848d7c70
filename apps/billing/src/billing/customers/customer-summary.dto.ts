import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsUUID } from 'class-validator';
import { WorkspaceScopedDto } from '../../identity/workspace-scoped.dto.js';

export class CustomerSummaryQueryDto extends WorkspaceScopedDto {
  @ApiPropertyOptional({ description: 'Customer email (give this or customer_id).', example: 'billing@acme.example' })
  @IsOptional()
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ description: 'Customer id (UUID; give this or email).' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
}

export class SummaryCustomerDto {
  @ApiProperty({ description: 'Customer id.' })
  id: string;

  @ApiProperty({ description: 'Customer name.' })
  name: string;

  @ApiProperty({ description: 'Billing email.' })
  email: string;
}

export class RecentInvoiceDto {
  @ApiProperty({ description: 'Invoice id.' })
  id: string;

  @ApiProperty({ description: 'Invoice number, e.g. INV-000123.' })
  number: string;

  @ApiProperty({ description: 'Status: draft, sent, paid, overdue or cancelled.' })
  status: string;

  @ApiProperty({ description: 'ISO 4217 currency.' })
  currency: string;

  @ApiProperty({ description: 'Total in minor units.' })
  total_minor: number;

  @ApiProperty({ description: 'Still owed, in minor units.' })
  balance_minor: number;

  @ApiProperty({ description: 'Due date, YYYY-MM-DD.', format: 'date' })
  due_date: string;
}

export class CurrencyBalanceDto {
  @ApiProperty({ description: 'ISO 4217 currency.' })
  currency: string;

  @ApiProperty({ description: 'Owed on open invoices (sent or overdue), in minor units.' })
  open_minor: number;

  @ApiProperty({ description: 'Owed on overdue invoices, in minor units.' })
  overdue_minor: number;

  @ApiProperty({ description: 'Number of overdue invoices.' })
  overdue_count: number;
}

export class CustomerSummaryDto {
  @ApiProperty({ description: 'The customer.', type: SummaryCustomerDto })
  customer: SummaryCustomerDto;

  @ApiProperty({ description: 'The 5 most recent invoices, newest first.', type: [RecentInvoiceDto] })
  recent_invoices: RecentInvoiceDto[];

  @ApiProperty({ description: 'Number of overdue invoices, all currencies.' })
  overdue_count: number;

  @ApiProperty({ description: 'Open and overdue amounts per currency.', type: [CurrencyBalanceDto] })
  balances: CurrencyBalanceDto[];
}
