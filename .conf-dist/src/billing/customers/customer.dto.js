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
import { IsEmail, IsInt, IsOptional, IsString, IsUUID, Length, Max, MaxLength, Min } from 'class-validator';
import { IdempotencyKey } from '../common/idempotency-key.js';
import { WorkspaceScopedDto } from '../common/workspace-scoped.dto.js';
export class CreateCustomerDto extends WorkspaceScopedDto {
    name;
    email;
    tax_id;
    /** A retry after a timeout must not fail on the unique email: with a key it gets the first answer. */
    idempotency_key;
}
__decorate([
    ApiProperty({ description: 'Legal or trade name of the customer.', example: 'Acme Logistics S.A. de C.V.' }),
    IsString(),
    Length(1, 200),
    __metadata("design:type", String)
], CreateCustomerDto.prototype, "name", void 0);
__decorate([
    ApiProperty({ description: 'Billing email; unique within the workspace.', example: 'billing@acme.example' }),
    IsEmail(),
    MaxLength(254),
    __metadata("design:type", String)
], CreateCustomerDto.prototype, "email", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Tax id (RFC, VAT number…), as printed on invoices.', example: 'ACM010101ABC' }),
    IsOptional(),
    IsString(),
    Length(3, 32),
    __metadata("design:type", String)
], CreateCustomerDto.prototype, "tax_id", void 0);
__decorate([
    IdempotencyKey({ optional: true }),
    __metadata("design:type", String)
], CreateCustomerDto.prototype, "idempotency_key", void 0);
export class CustomerIdDto extends WorkspaceScopedDto {
    customer_id;
}
__decorate([
    ApiProperty({ description: 'Customer id (UUID).' }),
    IsUUID(),
    __metadata("design:type", String)
], CustomerIdDto.prototype, "customer_id", void 0);
export class CustomerDto {
    id;
    name;
    email;
    tax_id;
    created_via;
    updated_via;
    created_at;
}
__decorate([
    ApiProperty({ description: 'Customer id (UUID).' }),
    __metadata("design:type", String)
], CustomerDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'Customer name.' }),
    __metadata("design:type", String)
], CustomerDto.prototype, "name", void 0);
__decorate([
    ApiProperty({ description: 'Billing email.' }),
    __metadata("design:type", String)
], CustomerDto.prototype, "email", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Tax id, when known.', type: String, nullable: true }),
    __metadata("design:type", Object)
], CustomerDto.prototype, "tax_id", void 0);
__decorate([
    ApiProperty({ description: 'Channel that created the record: mcp, api or panel.', enum: ['mcp', 'api', 'panel', 'system'] }),
    __metadata("design:type", String)
], CustomerDto.prototype, "created_via", void 0);
__decorate([
    ApiProperty({ description: 'Channel of the last update.', enum: ['mcp', 'api', 'panel', 'system'] }),
    __metadata("design:type", String)
], CustomerDto.prototype, "updated_via", void 0);
__decorate([
    ApiProperty({ description: 'Creation time, ISO 8601.', format: 'date-time' }),
    __metadata("design:type", String)
], CustomerDto.prototype, "created_at", void 0);
export class CustomerListQueryDto extends WorkspaceScopedDto {
    q;
    limit;
    cursor;
}
__decorate([
    ApiPropertyOptional({ description: 'Text to find in the name or email (case-insensitive).' }),
    IsOptional(),
    IsString(),
    MaxLength(100),
    __metadata("design:type", String)
], CustomerListQueryDto.prototype, "q", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Page size, 1–100 (default 20).', default: 20 }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(100),
    __metadata("design:type", Number)
], CustomerListQueryDto.prototype, "limit", void 0);
__decorate([
    ApiPropertyOptional({ description: 'next_cursor of the previous page.' }),
    IsOptional(),
    IsString(),
    MaxLength(500),
    __metadata("design:type", String)
], CustomerListQueryDto.prototype, "cursor", void 0);
export class CustomerListDto {
    items;
    next_cursor;
}
__decorate([
    ApiProperty({ description: 'Customers, by name.', type: [CustomerDto] }),
    __metadata("design:type", Array)
], CustomerListDto.prototype, "items", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Pass it as cursor for the next page; null on the last page.', type: String, nullable: true }),
    __metadata("design:type", Object)
], CustomerListDto.prototype, "next_cursor", void 0);
//# sourceMappingURL=customer.dto.js.map