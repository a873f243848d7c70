import { HttpException, Injectable, Logger } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import { McpProtocolError, setMcpSpanAttributes, type McpCall, type McpCallHook } from '@nest-mcp/core';
import { AuditService, type AuditOutcome, type AuditRecord } from './audit.service.js';
import { redactArguments } from './redact.js';

/** A tool result with `isError`: its writes must not stay, but the client still gets it. */
class FailedResult {
  constructor(readonly result: unknown) {}
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/**
 * Every MCP capability call that may write runs in one database transaction with its audit
 * event: the event commits with the call's writes, and a call that fails (an `isError` result, a
 * refusal, a fault) rolls its writes back and is audited on its own. So there is never a write
 * without its audit, nor an audit of a write that did not happen. Reads (read-only tools,
 * resources, prompts) are audited too, without a transaction.
 */
@Injectable()
export class AuditCallHook implements McpCallHook {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
  ) {}

  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const event = (outcome: AuditOutcome, errorCode?: string): AuditRecord => this.event(call, outcome, errorCode, started);
    try {
      if (call.readOnly) {
        // A read writes nothing that its audit row must commit with: no transaction to pay for.
        const result = await proceed();
        if (isErrorResult(result)) throw new FailedResult(result);
        await this.audit.recordBatched(event('success'));
        return result;
      }
      // Inside an already open transaction (a call replayed by an approval) this is a savepoint:
      // a failing call rolls back its own writes and is audited in the outer transaction.
      return await this.prisma.transaction(
        async () => {
          const result = await proceed();
          if (isErrorResult(result)) throw new FailedResult(result);
          await this.audit.record(event('success'));
          return result;
        },
        { savepoint: true },
      );
    } catch (failure) {
      if (failure instanceof FailedResult) {
        await this.audit.record(event('failed', errorCodeOf(failure.result)));
        return failure.result as T;
      }
      const [outcome, code] = classifyFailure(failure);
      await this.audit
        .record(event(outcome, code))
        .catch((error: Error) => this.logger.error(`Could not audit a failed ${call.method}: ${error.message}`));
      throw failure;
    }
  }

  private event(call: McpCall, outcome: AuditOutcome, errorCode: string | undefined, started: number): AuditRecord {
    const state = RequestContext.current();
    if (state?.workspace) setMcpSpanAttributes({ 'app.workspace.id': state.workspace.id, 'app.workspace.slug': state.workspace.slug });
    const principal = state?.principal;
    const traceparent = call.context.meta.traceparent;
    return {
      workspaceId: state?.workspace?.id,
      userId: principal?.userId,
      tokenId: principal?.tokenId,
      clientName: call.context.clientInfo?.name,
      clientVersion: call.context.clientInfo?.version,
      method: call.method,
      target: call.target,
      arguments: call.arguments === undefined ? undefined : redactArguments(call.arguments),
      outcome,
      errorCode,
      durationMs: Math.round(performance.now() - started),
      traceId: typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent)?.[1] : undefined,
    };
  }
}

function isErrorResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}

/** The first error code of the tool's JSON envelope, when it has one. */
function errorCodeOf(result: unknown): string | undefined {
  const text = (result as { content?: Array<{ type: string; text?: string }> }).content?.find((c) => c.type === 'text')?.text;
  try {
    return text ? (JSON.parse(text) as { errors?: Array<{ code?: string }> }).errors?.[0]?.code : undefined;
  } catch {
    return undefined;
  }
}

/** The outcome and error code of a call that threw: a refusal (401/403) is `denied`, anything else an `error`. */
export function classifyFailure(failure: unknown): [AuditOutcome, string] {
  if (failure instanceof McpProtocolError) return ['error', String(failure.code)];
  if (failure instanceof HttpException) {
    const status = failure.getStatus();
    return [status === 401 || status === 403 ? 'denied' : 'error', `http_${status}`];
  }
  return ['error', 'internal_error'];
}
