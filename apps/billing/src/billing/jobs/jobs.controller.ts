import { Controller, Delete, Get, Param, ParseUUIDPipe, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  McpCtx,
  type McpInvocation,
  type McpJobView,
  type McpResourceLink,
  McpTasks,
  McpTool,
  namedArgumentPipe,
  RequiredScopes,
  ToolReply,
} from '@nest-mcp/core';
import { SCOPES } from '../../app.scopes.js';
import { JobIdDto, JobViewDto } from './job.dto.js';

/**
 * The caller's own jobs: work a `task: 'background'` tool queued (billing_statement_export), as a
 * client without the MCP tasks extension or a REST client follows it. Every read is bound to the
 * caller (the person and the token that queued it): another caller's job is not found, exactly
 * like an unknown id. Not `@WorkspaceScoped()`: a job id names one job, whatever the workspace.
 */
@ApiTags('jobs')
@ApiBearerAuth()
@Controller('v1/jobs')
export class JobsController {
  constructor(private readonly tasks: McpTasks) {}

  @Get(':job_id')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({
    type: JobViewDto,
    headers: {
      'Retry-After': { description: 'While the job is not finished: seconds to wait before asking again.', schema: { type: 'integer' } },
    },
  })
  @ApiNotFoundResponse({
    description: 'No job with this id was queued by this caller (unknown, expired after a day, or another caller’s).',
  })
  @McpTool({
    name: 'billing_job_get',
    title: 'Check a queued job',
    description:
      'When to use: a tool answered status "queued" with data.jobId (e.g. billing_statement_export), and you need to know ' +
      'whether that work finished and what it produced. ' +
      'Never use for: starting work, or checking jobs someone else started (they are not visible). ' +
      'Side effects: none. ' +
      'Success criteria: ok is true; data.status is "working" (not finished: tell the user it is in progress and call again ' +
      'in a few seconds, data.statusMessage says how far it got), "completed" (data.result is the tool\'s answer: read its ' +
      'ok, data and errors; the resources it linked to, such as an exported file, are linked from this answer too), ' +
      '"failed" (data.error says why) or "cancelled". ' +
      'Fallback: not_found means the id is wrong or the job expired (jobs are kept a day): start the work again if needed.',
    annotations: { readOnlyHint: true, idempotentHint: true },
    input: JobIdDto,
    output: JobViewDto,
  })
  async get(
    @Param('job_id', namedArgumentPipe(ParseUUIDPipe)) jobId: string,
    @Req() request: Request,
    @McpCtx() invocation: McpInvocation | undefined,
    @Res({ passthrough: true }) response: Response | undefined,
  ): Promise<McpJobView | ToolReply> {
    const job = await this.tasks.job(jobId, request);
    if (!job) throw this.tasks.unknownJob(jobId);
    // Not finished: when to ask again, for a REST client (the MCP answer's nextQuestion says it in words).
    if (job.status === 'working' || job.status === 'input_required')
      response?.setHeader('Retry-After', String(this.tasks.retryAfterSeconds()));
    if (!invocation || job.status !== 'completed') return job;
    // Over MCP, a finished job answers with the links its tool's answer had (a stored file to read as
    // resources): a client that follows a job gets them as one that followed a task would.
    const resourceLinks = resourceLinksOf((await this.tasks.find(jobId, request))?.result);
    return resourceLinks.length ? ToolReply.success(job, { resourceLinks }) : job;
  }

  @Delete(':job_id')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: JobViewDto, description: 'The job after the cancel: cancelled, or as it finished if it finished first.' })
  @ApiNotFoundResponse({ description: 'No job with this id was queued by this caller.' })
  @McpTool({
    name: 'billing_job_cancel',
    title: 'Cancel a queued job',
    description:
      'When to use: the user asks to stop work a tool queued (data.jobId of a "queued" answer) that is not finished, e.g. an ' +
      'export started with the wrong period. ' +
      'Never use for: undoing work that already completed (cancelling a completed job changes nothing), or jobs of others. ' +
      'Side effects: the job stops; nothing it did is kept (a running export is rolled back, no file is stored). ' +
      'Success criteria: ok is true and data.status is "cancelled"; if it is "completed" or "failed", the job had already ' +
      'finished and the cancel changed nothing. ' +
      'Fallback: not_found means the id is wrong or the job expired.',
    annotations: { idempotentHint: true },
    input: JobIdDto,
    output: JobViewDto,
  })
  async cancel(@Param('job_id', namedArgumentPipe(ParseUUIDPipe)) jobId: string, @Req() request: Request): Promise<McpJobView> {
    const task = await this.tasks.find(jobId, request);
    if (!task) throw this.tasks.unknownJob(jobId);
    await this.tasks.cancel(task, 'Cancelled by the caller');
    const cancelled = await this.tasks.job(jobId, request);
    if (!cancelled) throw this.tasks.unknownJob(jobId);
    return cancelled;
  }
}

/** The `resource_link` blocks of a stored tool result, without their `type` (the layer adds it back for the client's revision). */
function resourceLinksOf(result: Record<string, unknown> | undefined): McpResourceLink[] {
  const content = Array.isArray(result?.content) ? (result.content as Array<Record<string, unknown>>) : [];
  return content.filter((block) => block.type === 'resource_link').map(({ type: _type, ...link }) => link as McpResourceLink);
}
