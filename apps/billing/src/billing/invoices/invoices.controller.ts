import { Body, Controller, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { SCOPES } from '../../app.scopes.js';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { McpCompletion, type McpCompletionRequest, McpResource, McpTool, RequiredScopes } from '@nest-mcp/core';
import {
  CancelInvoiceBodyDto,
  CancelInvoiceDto,
  CreateInvoiceDto,
  SEARCH_MAX_LIMIT,
  SearchInvoicesDto,
  UpdateInvoiceDto,
} from './invoice-input.dto.js';
import { InvoiceDto, InvoiceSearchResultDto } from './invoice-output.dto.js';
import { InvoiceArgs, invoiceArgsValidation, invoiceIdPipe } from './invoice-params.js';
import { InvoicesService } from './invoices.service.js';
import { IdempotentRoute } from '../../idempotency/idempotent-route.decorator.js';

export const INVOICE_URI_TEMPLATE = 'billing://invoices/{id}';

/**
 * Invoices over REST, and the MCP tools that are these very handlers: fewer tools than routes on
 * purpose (reading one invoice is the billing://invoices/{id} resource; PATCH stays REST-only).
 */
@ApiTags('invoices')
@ApiBearerAuth()
@WorkspaceScoped()
@Controller('v1/invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Get()
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: InvoiceSearchResultDto })
  @McpTool({
    name: 'billing_invoices_search',
    title: 'Search invoices',
    description:
      'When to use: to find invoices and answer questions about them: what a customer owes (customer_email), ' +
      'which invoices are overdue (status "overdue"), what was issued in a period (issued_from/issued_to), ' +
      'or to get the id of an invoice before acting on it. ' +
      'Never use for: creating, changing or cancelling invoices; reading every invoice of a workspace page by page ' +
      '(filter instead). ' +
      'Side effects: none (read-only). ' +
      `Success criteria: ok is true; data.items holds up to limit (default 20, max ${SEARCH_MAX_LIMIT}) invoices, ` +
      'newest issue date first, with amounts in minor units; data.total_matching says how many match in all. ' +
      'Fallback: if data.hint is present, follow it (add a filter) rather than paging; pass data.next_cursor as ' +
      'cursor only when you really need the next page; with no results, widen or drop filters.',
    input: SearchInvoicesDto,
    output: InvoiceSearchResultDto,
    annotations: { readOnlyHint: true, idempotentHint: true },
  })
  search(@Query() dto: SearchInvoicesDto): Promise<InvoiceSearchResultDto> {
    return this.invoices.search(dto);
  }

  @Get(':id')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: InvoiceDto })
  @McpResource({
    uri: INVOICE_URI_TEMPLATE,
    name: 'invoice',
    title: 'Invoice',
    description: 'One invoice of the workspace as JSON: customer, status, amounts in minor units, lines and a payments summary.',
    mimeType: 'application/json',
    scopes: [SCOPES.billingRead],
  })
  get(@Param('id', invoiceIdPipe()) id: string): Promise<InvoiceDto> {
    return this.invoices.get(id);
  }

  @Post()
  @IdempotentRoute()
  @RequiredScopes(SCOPES.billingWrite)
  @ApiCreatedResponse({ type: InvoiceDto })
  @McpTool({
    name: 'billing_invoice_create',
    title: 'Create an invoice',
    description:
      'When to use: the user asks to bill an existing customer for specific items (description, quantity, unit price) ' +
      'in one currency, with a due date. ' +
      'Never use for: changing or re-sending an existing invoice, recording a payment, or a customer that does not exist yet ' +
      '(create the customer first). Amounts are integers in minor units: 1,250.00 is 125000. ' +
      'Side effects: creates one invoice with the next number of the workspace (INV-000123); status "sent" (default) ' +
      'issues it, "draft" keeps it unsent. ' +
      'Success criteria: ok is true; data.id and data.number identify the new invoice and data.total_minor is the sum ' +
      'of the lines; tell the user the number and total. ' +
      'Fallback: on an invalid_argument error fix the named field and call again; on not_found check customer_id; ' +
      'when retrying after a timeout, reuse the same idempotency_key.',
    output: InvoiceDto,
  })
  create(@Body() dto: CreateInvoiceDto): Promise<InvoiceDto> {
    return this.invoices.create(dto);
  }

  @Patch(':id')
  @RequiredScopes(SCOPES.billingWrite)
  @ApiOkResponse({ type: InvoiceDto })
  update(@Param('id', invoiceIdPipe()) id: string, @Body() dto: UpdateInvoiceDto): Promise<InvoiceDto> {
    return this.invoices.update(id, dto);
  }

  @Post(':id/cancel')
  @HttpCode(HttpStatus.OK)
  @RequiredScopes(SCOPES.billingAdmin)
  @ApiParam({ name: 'id', description: 'Invoice id (UUID).' })
  @ApiBody({ type: CancelInvoiceBodyDto })
  @ApiOkResponse({ type: InvoiceDto })
  @McpTool({
    name: 'billing_invoice_cancel',
    title: 'Cancel an invoice',
    description:
      'When to use: the user explicitly asks to cancel (void) a specific unpaid invoice, e.g. issued by mistake, and ' +
      'has confirmed which one (by number) and why. ' +
      'Never use for: invoices with any payment (refund the payments first), correcting an invoice you could update, ' +
      'or cleaning up invoices the user did not name. ' +
      'Side effects: irreversible; sets the invoice status to cancelled with the reason and time; it no longer counts ' +
      'as owed. ' +
      'Success criteria: ok is true and data.status is "cancelled". ' +
      'Fallback: if it has payments, tell the user to refund them first; if it is already cancelled, report that; ' +
      'if confirmation is required, tell the user to cancel it in the billing application.',
    input: CancelInvoiceDto,
    output: InvoiceDto,
    annotations: { destructiveHint: true, idempotentHint: false },
  })
  cancel(@InvoiceArgs(invoiceArgsValidation()) dto: CancelInvoiceDto): Promise<InvoiceDto> {
    return this.invoices.cancel(dto);
  }

  /** `completion/complete` for billing://invoices/{id}: the workspace's recent invoice ids. */
  @RequiredScopes(SCOPES.billingRead)
  @McpCompletion({ resourceTemplate: INVOICE_URI_TEMPLATE, argument: 'id' })
  completeInvoiceId(request: McpCompletionRequest): Promise<string[]> {
    return this.invoices.recentIds(request.value ?? '');
  }
}
