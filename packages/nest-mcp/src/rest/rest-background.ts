import { HttpException, HttpStatus, Inject, Injectable, type BadRequestException } from '@nestjs/common';
import { ValidationError } from 'class-validator';
import type { Request, Response } from 'express';
import type { McpRestBackgroundAnswers } from '../decorators/rest-background.interceptor.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { validateToolArguments, type FieldViolation } from '../schema/dto-argument.validator.js';
import { McpTasks, restTaskCall, type McpJobView } from '../tasks/mcp-tasks.service.js';
import type { ToolReply } from '../tool-results/tool-reply.js';
import { restValidationException } from './mcp-rest-validation.pipe.js';

/** A `task: 'background'` tool's REST route, as the explorer resolved it at boot (`backgroundRestRoute`). */
export interface RestBackgroundRoute {
  tool: string;
  /** The tool's arguments in a REST request: what the route's `@Body()`, `@Query()` and `@Param()` read (validated here). */
  argumentsOf(request: Request): unknown;
  /** The job's REST path: the job tool's route with the job id. */
  jobLocation(jobId: string): string;
}

/** The HTTP status of each reason `McpTasks.accept` creates no task. */
const REFUSALS: Record<string, { status: HttpStatus; error: string }> = {
  too_many_tasks: { status: HttpStatus.TOO_MANY_REQUESTS, error: 'Too Many Requests' },
  task_too_large: { status: HttpStatus.PAYLOAD_TOO_LARGE, error: 'Payload Too Large' },
};

/**
 * Answers REST requests to background routes (see `McpRestBackgroundInterceptor`): the request's
 * arguments are validated as an MCP call's are (the same DTO, the same rules: a body the run would
 * refuse is a 400 now, never a queued job that fails), then queued as the tool's task for the REST
 * caller, answered `202 Accepted` with the job, `Location` (the job tool's route) and `Retry-After`.
 */
@Injectable()
export class McpRestBackground implements McpRestBackgroundAnswers {
  private readonly routes = new Map<Function, RestBackgroundRoute>();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly registry: McpRegistry,
    private readonly tasks: McpTasks,
  ) {}

  /** At boot (`McpExplorer`): `handler` is the route of a background tool. */
  add(handler: Function, route: RestBackgroundRoute): void {
    this.routes.set(handler, route);
  }

  serves(handler: Function): boolean {
    return this.routes.has(handler);
  }

  async answer(handler: Function, request: Request, response: Response): Promise<McpJobView> {
    const route = this.routes.get(handler)!;
    const args = route.argumentsOf(request);
    const tool = this.registry.tool(route.tool);
    const validation = await validateToolArguments(tool?.input, args, {
      forbidUnknown: this.options.forbidUnknownArguments,
      raw: tool?.rawInputSchema,
    });
    if (validation && !validation.ok) throw invalidArguments(validation.violations);
    const accepted = await this.tasks.accept(restTaskCall(this.options, route.tool, args as Record<string, unknown>, request), 'job');
    if (!accepted.taskId) throw refusal(accepted.reply as ToolReply);
    const job = (await this.tasks.job(accepted.taskId, request))!;
    response.setHeader('Location', route.jobLocation(accepted.taskId));
    response.setHeader('Retry-After', String(this.tasks.retryAfterSeconds()));
    return job;
  }
}

/** The REST 400 (`restValidationException`'s body) of arguments the tool's DTO refused, each violation worded as for an MCP call. */
function invalidArguments(violations: FieldViolation[]): BadRequestException {
  return restValidationException(
    violations.map(({ field, message }) =>
      Object.assign(new ValidationError(), { property: field, constraints: { argument: message }, children: [] }),
    ),
  );
}

/** Why no task was created (`too_many_tasks`, `task_too_large`), in the words an MCP caller gets, with its HTTP status. */
function refusal(reply: ToolReply): HttpException {
  const [error] = reply.errors;
  const { status, error: reason } = REFUSALS[error?.code ?? ''] ?? { status: HttpStatus.SERVICE_UNAVAILABLE, error: 'Service Unavailable' };
  return new HttpException({ statusCode: status, error: reason, code: error?.code, message: error?.message }, status);
}
