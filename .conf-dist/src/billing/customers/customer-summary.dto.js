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
import { IsEmail, IsOptional, IsUUID } from 'class-validator';
import { WorkspaceScopedDto } from '../common/workspace-scoped.dto.js';
export class CustomerSummaryQueryDto extends WorkspaceScopedDto {
    email;
    customer_id;
}
__decorate([
    ApiPropertyOptional({ description: 'Customer email (give this or customer_id).', example: 'billing@acme.example' }),
    IsOptional(),
    IsEmail(),
    __metadata("design:type", String)
], CustomerSummaryQueryDto.prototype, "email", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Customer id (UUID; give this or email).' }),
    IsOptional(),
    IsUUID(),
    __metadata("design:type", String)
], CustomerSummaryQueryDto.prototype, "customer_id", void 0);
export class SummaryCustomerDto {
    id;
    name;
    email;
}
__decorate([
    ApiProperty({ description: 'Customer id.' }),
    __metadata("design:type", String)
], SummaryCustomerDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Customer name.' }),
    __metadata("design:type", String)
], SummaryCustomerDto.prototype, "name", void 0);
__decorate([
    ApiProperty({ description: 'Billing email.' }),
    __metadata("design:type", String)
], SummaryCustomerDto.prototype, "email", void 0);
export class RecentInvoiceDto {
    id;
    number;
    status;
    currency;
    total_minor;
    balance_minor;
    due_date;
}
__decorate([
    ApiProperty({ description: 'Invoice id.' }),
    __metadata("design:type", String)
], RecentInvoiceDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Invoice number, e.g. INV-000123.' }),
    __metadata("design:type", String)
], RecentInvoiceDto.prototype, "number", void 0);
__decorate([
    ApiProperty({ description: 'Status: draft, sent, paid, overdue or cancelled.' }),
    __metadata("design:type", String)
], RecentInvoiceDto.prototype, "status", void 0);
__decorate([
    ApiProperty({ description: 'ISO 4217 currency.' }),
    __metadata("design:type", String)
], RecentInvoiceDto.prototype, "currency", void 0);
__decorate([
    ApiProperty({ description: 'Total in minor units.' }),
    __metadata("design:type", Number)
], RecentInvoiceDto.prototype, "total_minor", void 0);
__decorate([
    ApiProperty({ description: 'Still owed, in minor units.' }),
    __metadata("design:type", Number)
], RecentInvoiceDto.prototype, "balance_minor", void 0);
__decorate([
    ApiProperty({ description: 'Due date, YYYY-MM-DD.', format: 'date' }),
    __metadata("design:type", String)
], RecentInvoiceDto.prototype, "due_date", void 0);
export class CurrencyBalanceDto {
    currency;
    open_minor;
    overdue_minor;
    overdue_count;
}
__decorate([
    ApiProperty({ description: 'ISO 4217 currency.' }),
    __metadata("design:type", String)
], CurrencyBalanceDto.prototype, "currency", void 0);
__decorate([
    ApiProperty({ description: 'Owed on open invoices (sent or overdue), in minor units.' }),
    __metadata("design:type", Number)
], CurrencyBalanceDto.prototype, "open_minor", void 0);
__decorate([
    ApiProperty({ description: 'Owed on overdue invoices, in minor units.' }),
    __metadata("design:type", Number)
], CurrencyBalanceDto.prototype, "overdue_minor", void 0);
__decorate([
    ApiProperty({ description: 'Number of overdue invoices.' }),
    __metadata("design:type", Number)
], CurrencyBalanceDto.prototype, "overdue_count", void 0);
export class CustomerSummaryDto {
    customer;
    recent_invoices;
    overdue_count;
    balances;
}
__decorate([
    ApiProperty({ description: 'The customer.', type: SummaryCustomerDto }),
    __metadata("design:type", SummaryCustomerDto)
], CustomerSummaryDto.prototype, "customer", void 0);
__decorate([
    ApiProperty({ description: 'The 5 most recent invoices, newest first.', type: [RecentInvoiceDto] }),
    __metadata("design:type", Array)
], CustomerSummaryDto.prototype, "recent_invoices", void 0);
__decorate([
    ApiProperty({ description: 'Number of overdue invoices, all currencies.' }),
    __metadata("design:type", Number)
], CustomerSummaryDto.prototype, "overdue_count", void 0);
__decorate([
    ApiProperty({ description: 'Open and overdue amounts per currency.', type: [CurrencyBalanceDto] }),
    __metadata("design:type", Array)
], CustomerSummaryDto.prototype, "balances", void 0);
//# sourceMappingURL=customer-summary.dto.js.map