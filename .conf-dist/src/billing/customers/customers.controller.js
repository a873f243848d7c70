var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { SCOPES } from '../../identity/roles.js';
import { BillingError } from '../common/billing.errors.js';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { McpCompletion, McpResource, McpTool, RequiredScopes } from '../../mcp/index.js';
import { CustomerSummaryDto, CustomerSummaryQueryDto } from './customer-summary.dto.js';
import { CustomerSummaryService } from './customer-summary.service.js';
import { CreateCustomerDto, CustomerDto, CustomerListDto, CustomerListQueryDto } from './customer.dto.js';
import { CustomersService } from './customers.service.js';
import { IdempotentRoute } from '../../idempotency/idempotent-route.decorator.js';
let CustomersController = class CustomersController {
    customers;
    summaries;
    constructor(customers, summaries) {
        this.customers = customers;
        this.summaries = summaries;
    }
    summary(query) {
        return this.summaries.summarize(query);
    }
    list(query) {
        return this.customers.list(query);
    }
    create(dto) {
        return this.customers.create(dto);
    }
    get(id) {
        return this.customers.get(id);
    }
    async resource(id) {
        if (!isUUID(id))
            throw BillingError.notFound('Customer', id, 'customer ids are UUIDs; complete the id or search by email');
        return this.summaries.summarize({ customer_id: id });
    }
    completeId() {
        return this.customers.recentIds();
    }
};
__decorate([
    Get('summary'),
    RequiredScopes(SCOPES.billingRead),
    ApiOkResponse({ type: CustomerSummaryDto }),
    McpTool({
        name: 'billing_customer_summary',
        title: 'Customer billing summary',
        description: 'When to use: the user asks how a customer stands: what they owe, what is overdue, their latest invoices. ' +
            'Never use for: listing many invoices with filters (use billing_invoices_search) or changing anything. ' +
            'Side effects: none. ' +
            'Success criteria: ok is true; data.balances gives open and overdue amounts per currency (minor units), ' +
            'data.recent_invoices the 5 newest. ' +
            'Fallback: if the customer is not found, confirm the email with the user; with neither email nor customer_id ' +
            'you get needs_more_info and the question to ask.',
        annotations: { readOnlyHint: true, idempotentHint: true },
        output: CustomerSummaryDto,
    }),
    __param(0, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [CustomerSummaryQueryDto]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "summary", null);
__decorate([
    Get(),
    RequiredScopes(SCOPES.billingRead),
    ApiOkResponse({ type: CustomerListDto }),
    __param(0, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [CustomerListQueryDto]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "list", null);
__decorate([
    Post(),
    IdempotentRoute(),
    RequiredScopes(SCOPES.billingWrite),
    ApiCreatedResponse({ type: CustomerDto }),
    McpTool({
        name: 'billing_customer_create',
        title: 'Create a customer',
        description: 'When to use: the user wants to bill someone who is not yet a customer. ' +
            'Never use for: updating an existing customer, or when a customer with that email exists (search first). ' +
            'Side effects: creates one customer in the workspace. ' +
            'Success criteria: ok is true and data.id is the new customer id. ' +
            'Fallback: on conflict, use the existing customer id given in the error message.',
        output: CustomerDto,
    }),
    __param(0, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [CreateCustomerDto]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "create", null);
__decorate([
    Get(':id'),
    RequiredScopes(SCOPES.billingRead),
    ApiOkResponse({ type: CustomerDto }),
    __param(0, Param('id', ParseUUIDPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "get", null);
__decorate([
    RequiredScopes(SCOPES.billingRead),
    McpResource({
        uri: 'billing://customers/{id}',
        name: 'billing_customer',
        title: 'Customer',
        description: 'One customer of the workspace, with its billing summary.',
        mimeType: 'application/json',
    }),
    __param(0, Param('id')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "resource", null);
__decorate([
    RequiredScopes(SCOPES.billingRead),
    McpCompletion({ resourceTemplate: 'billing://customers/{id}', argument: 'id' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "completeId", null);
CustomersController = __decorate([
    ApiTags('customers'),
    ApiBearerAuth(),
    WorkspaceScoped(),
    Controller('v1/customers'),
    __metadata("design:paramtypes", [CustomersService,
        CustomerSummaryService])
], CustomersController);
export { CustomersController };
//# sourceMappingURL=customers.controller.js.map