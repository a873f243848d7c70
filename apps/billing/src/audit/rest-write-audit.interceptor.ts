import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import { McpAuditLog, redactArguments, runAudited, type AuditOutcome, type AuditRecord } from '@nest-mcp/prisma';

/** Methods that write nothing: their REST requests are not audited (MCP reads are, by the call hook). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every REST write leaves an audit row, as every MCP call does (`McpAuditHook`; both through
 * `runAudited`): the handler runs in one transaction with its `mcp_audit_events` row (channel
 * `api`), so a write never commits without its row; a write that fails rolls back and is audited
 * on its own. The audit trail is the
 * record of what happened to the enterprise's money, whichever surface the credential used.
 *
 * On every write route (RestWriteAuditRoutes), it also runs when an MCP call reaches that handler
 * in-process: there the call hook has already opened the transaction and will write the row, so
 * it steps aside (channel `mcp`).
 */
@Injectable()
export class RestWriteAuditInterceptor implements NestInterceptor {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: McpAuditLog,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || RequestContext.current()?.channel !== 'api') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    if (READ_METHODS.has(request.method)) return next.handle();
    return from(this.audited(request, next));
  }

  private audited(request: Request, next: CallHandler): Promise<unknown> {
    const started = performance.now();
    return runAudited(this.prisma, this.audit, () => lastValueFrom(next.handle(), { defaultValue: undefined }), {
      name: `${request.method} ${request.path}`,
      event: (outcome, errorCode) => this.event(request, outcome, errorCode, started),
    });
  }

  private event(request: Request, outcome: AuditOutcome, errorCode: string | undefined, started: number): AuditRecord {
    const state = RequestContext.current();
    const route = (request.route as { path?: string } | undefined)?.path ?? request.path;
    return {
      workspaceId: state?.workspace?.id,
      userId: state?.principal?.userId,
      tokenId: state?.principal?.tokenId,
      clientName: headerText(request.headers['user-agent']),
      method: `${request.method} ${route}`,
      target: request.path,
      arguments: redactArguments({ params: request.params, query: request.query, body: request.body as unknown }),
      outcome,
      errorCode,
      durationMs: Math.round(performance.now() - started),
    };
  }
}

function headerText(value: string | undefined): string | undefined {
  return value ? value.slice(0, 200) : undefined;
}
