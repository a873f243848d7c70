import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { SCOPES } from '../../app.scopes.js';
import { BillingError } from '../common/billing.errors.js';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { McpCompletion, McpResource, McpTool, namedArgumentPipe, RequiredScopes } from '@nest-mcp/core';
import { CustomerSummaryDto, CustomerSummaryQueryDto } from './customer-summary.dto.js';
import { CustomerSummaryService } from './customer-summary.service.js';
import { CreateCustomerDto, CustomerDto, CustomerListDto, CustomerListQueryDto } from './customer.dto.js';
import { CustomersService } from './customers.service.js';
import { CUSTOMER_BALANCE_VIEW } from './views/customer-balance.view.js';
import { IdempotentRoute } from '../../idempotency/idempotent-route.decorator.js';

@ApiTags('customers')
@ApiBearerAuth()
@WorkspaceScoped()
@Controller('v1/customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly summaries: CustomerSummaryService,
  ) {}

  @Get('summary')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: CustomerSummaryDto })
  @McpTool({
    name: 'billing_customer_summary',
    title: 'Customer billing summary',
    description:
      'When to use: the user asks how a customer stands: what they owe, what is overdue, their latest invoices. ' +
      'Never use for: listing many invoices with filters (use billing_invoices_search) or changing anything. ' +
      'Side effects: none. ' +
      'Success criteria: ok is true; data.balances gives open and overdue amounts per currency (minor units), ' +
      'data.recent_invoices the 5 newest. ' +
      'Fallback: if the customer is not found, confirm the email with the user; with neither email nor customer_id ' +
      'you get needs_more_info and the question to ask.',
    annotations: { readOnlyHint: true, idempotentHint: true },
    output: CustomerSummaryDto,
    // Hosts that show app views render the balances and invoices beside the answer.
    view: CUSTOMER_BALANCE_VIEW,
  })
  summary(@Query() query: CustomerSummaryQueryDto): Promise<CustomerSummaryDto> {
    return this.summaries.summarize(query);
  }

  @Get()
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: CustomerListDto })
  list(@Query() query: CustomerListQueryDto): Promise<CustomerListDto> {
    return this.customers.list(query);
  }

  @Post()
  @IdempotentRoute()
  @RequiredScopes(SCOPES.billingWrite)
  @ApiCreatedResponse({ type: CustomerDto })
  @McpTool({
    name: 'billing_customer_create',
    title: 'Create a customer',
    description:
      'When to use: the user wants to bill someone who is not yet a customer. ' +
      'Never use for: updating an existing customer, or when a customer with that email exists (search first). ' +
      'Side effects: creates one customer in the workspace. ' +
      'Success criteria: ok is true and data.id is the new customer id. ' +
      'Fallback: on conflict, use the existing customer id given in the error message.',
    output: CustomerDto,
  })
  create(@Body() dto: CreateCustomerDto): Promise<CustomerDto> {
    return this.customers.create(dto);
  }

  @Get(':id')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: CustomerDto })
  get(@Param('id', namedArgumentPipe(ParseUUIDPipe)) id: string): Promise<CustomerDto> {
    return this.customers.get(id);
  }

  @RequiredScopes(SCOPES.billingRead)
  @McpResource({
    uri: 'billing://customers/{id}',
    name: 'billing_customer',
    title: 'Customer',
    description: 'One customer of the workspace, with its billing summary.',
    mimeType: 'application/json',
  })
  async resource(@Param('id') id: string): Promise<CustomerSummaryDto> {
    if (!isUUID(id)) throw BillingError.notFound('Customer', id, 'customer ids are UUIDs; complete the id or search by email');
    return this.summaries.summarize({ customer_id: id });
  }

  @RequiredScopes(SCOPES.billingRead)
  @McpCompletion({ resourceTemplate: 'billing://customers/{id}', argument: 'id' })
  completeId(): Promise<string[]> {
    return this.customers.recentIds();
  }
}
