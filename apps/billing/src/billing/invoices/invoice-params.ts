import { BadRequestException, createParamDecorator, HttpStatus, ParseUUIDPipe, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { McpExecutionContext, mcpRestValidationPipe } from '@nest-mcp/core';

/** `:id` of an invoice route (and the `{id}` of billing://invoices/{id}): a UUID, or an actionable 400. */
export const invoiceIdPipe = () =>
  new ParseUUIDPipe({
    exceptionFactory: () =>
      new BadRequestException({
        statusCode: HttpStatus.BAD_REQUEST,
        code: 'invalid_argument',
        field: 'id',
        message: 'The invoice id must be a UUID (e.g. 3f2b8c1e-…); find it with billing_invoices_search',
      }),
  });

/**
 * The arguments of an operation on one invoice, whatever the channel: over MCP the validated tool
 * arguments (`invoice_id` among them), over REST the JSON body with `invoice_id` taken from the
 * `:id` path parameter. So one DTO validates both, and the REST body stays `{ reason }`.
 * Pair it with {@link invoiceArgsValidation}: custom parameters skip the global ValidationPipe.
 */
export const InvoiceArgs = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const invocation = McpExecutionContext.invocation(context);
  if (invocation) return invocation.input;
  const req = context.switchToHttp().getRequest<Request>();
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (body.invoice_id !== undefined && body.invoice_id !== req.params.id) {
    throw new BadRequestException({
      statusCode: HttpStatus.BAD_REQUEST,
      code: 'invalid_argument',
      field: 'invoice_id',
      message: 'invoice_id goes in the path (/v1/invoices/{id}/…), not in the body; remove it from the body',
    });
  }
  return { ...body, invoice_id: req.params.id };
});

/**
 * The global pipe's rules (and words: `` `reason` is missing``, as over MCP), for a parameter
 * produced by {@link InvoiceArgs}; unknown properties refused, as the MCP module's default.
 */
export const invoiceArgsValidation = () => mcpRestValidationPipe({ validateCustomDecorators: true });
