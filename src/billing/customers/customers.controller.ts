import { Body, Controller, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { McpTool, RequiredScopes } from '../../mcp/index.js';
import { SCOPES } from '../../identity/roles.js';
import { CreateCustomerDto, CustomerDto } from './customer.dto.js';
import { CustomersService } from './customers.service.js';

@ApiTags('customers')
@ApiBearerAuth()
@WorkspaceScoped()
@Controller('v1/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post()
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
  get(@Param('id', ParseUUIDPipe) id: string): Promise<CustomerDto> {
    return this.customers.get(id);
  }
}
