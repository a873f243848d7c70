import { Body, Controller, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { McpCtx, type McpInvocation, McpTool, RequiredScopes, ToolReply } from '@nest-mcp/core';
import { SCOPES } from '../../app.scopes.js';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { JobViewDto } from '../jobs/job.dto.js';
import { StatementExportDto } from './statement-export.dto.js';
import { StatementsService } from './statements.service.js';

export const STATEMENT_EXPORT_TOOL = 'billing_statement_export';

/**
 * Period statements. One handler, two surfaces, and the layer queues both (`task: 'background'`):
 * an MCP call gets a task or a queued job, a REST request `202 Accepted` with the job, its
 * `Location` (GET /v1/jobs/{id}, the job tool's route) and `Retry-After`, or `429 too_many_tasks`.
 * The handler is the work, run on a worker as the task's run.
 */
@ApiTags('statements')
@ApiBearerAuth()
@WorkspaceScoped()
@Controller('v1/statements')
export class StatementsController {
  constructor(private readonly statements: StatementsService) {}

  @Post('exports')
  @RequiredScopes(SCOPES.billingRead, SCOPES.billingWrite)
  @ApiAcceptedResponse({
    type: JobViewDto,
    description:
      'The export is queued: follow it at Location (GET /v1/jobs/{jobId}) until status is completed; then result.data.attachment_id ' +
      'is the stored CSV (GET /v1/attachments/{id}/content for its bytes).',
    headers: {
      Location: { description: 'The job: /v1/jobs/{jobId}.', schema: { type: 'string', example: '/v1/jobs/3f2b…' } },
      'Retry-After': { description: 'Seconds to wait before asking the job.', schema: { type: 'integer', example: 1 } },
    },
  })
  @ApiTooManyRequestsResponse({
    description: 'too_many_tasks: the workspace already has as many unfinished jobs as it may; wait for one to finish.',
  })
  @McpTool({
    name: STATEMENT_EXPORT_TOOL,
    title: 'Export a period statement (CSV)',
    description:
      'When to use: the user asks for a statement, an export or a spreadsheet of what was invoiced and paid over a period ' +
      '(a month, a quarter, a year), for the whole workspace or for one customer (customer_id). ' +
      'Never use for: answering a question you can answer with billing_invoices_search or billing_customer_summary (an ' +
      'export reads every row of the period and takes a while). ' +
      'Side effects: stores one CSV file (an attachment of the workspace) with a row per invoice issued and per payment ' +
      'received in the period; changes no invoice or payment. It runs in the background: the answer is status "queued" ' +
      'with data.jobId (or a task, for clients that support MCP tasks); nothing is stored until it completes. ' +
      'Success criteria: once the job (billing_job_get) is completed, its result has ok true and data.attachment_id, ' +
      'data.size_bytes, data.invoice_rows and data.payment_rows; give the user the file name and the row counts. The ' +
      'result also links to the file (resource_link content: billing://attachments/{id}, or its parts in order for a large ' +
      'file): read those resources (resources/read) if you need the rows, and join the parts in order; data.download_path ' +
      'is for fetching it over REST with an API token. ' +
      'Fallback: statement_too_large means the file would exceed the export size limit: export a shorter period or one customer; ' +
      'not_found means the customer_id is wrong; too_many_tasks means other exports are still running: wait and call again.',
    task: 'background',
    input: StatementExportDto,
  })
  async export(@Body() dto: StatementExportDto, @McpCtx() invocation: McpInvocation): Promise<ToolReply> {
    // Its result links to the file's resources, for a client with no REST token.
    const { result, resourceLinks } = await this.statements.export(dto, invocation);
    return ToolReply.success(result, { resourceLinks });
  }
}
