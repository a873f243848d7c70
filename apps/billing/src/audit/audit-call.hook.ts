import { HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import {
  MCP_OPTIONS,
  McpProtocolError,
  setMcpSpanAttributes,
  type McpCall,
  type McpCallHook,
  type ResolvedMcpOptions,
} from '@nest-mcp/core';
import { AuditService, type AuditOutcome, type AuditRecord } from './audit.service.js';
import { redactArguments } from './redact.js';

/** A tool result with `isError`: its writes must not stay, but the client still gets it. */
class FailedResult {
  constructor(readonly result: unknown) {}
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
/** A task's run may outlive the worker's own stop by this much before its transaction is rolled back (see `around`). */
const TASK_RUN_TRANSACTION_MARGIN_MS = 5_000;

/**
 * Every MCP capability call that may write runs in one database transaction with its audit
 * event: the event commits with the call's writes, and a call that fails (an `isError` result, a
 * refusal, a fault) rolls its writes back and is audited on its own. So there is never a write
 * without its audit, nor an audit of a write that did not happen. Reads (read-only tools,
 * resources, prompts) are audited too, without a transaction.
 *
 * Tools declared with `task` (docs/tasks.md) pass here twice: when the call is accepted (the task
 * and its job are created in the transaction, audited `queued`) and when a worker runs it (the
 * work, audited `success` / `failed` / `cancelled`): one row says it was asked, one what was done.
 */
@Injectable()
export class AuditCallHook implements McpCallHook {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
    @Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions,
  ) {}

  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const event = (outcome: AuditOutcome, errorCode?: string): AuditRecord => this.event(call, outcome, errorCode, started);
    try {
      if (call.readOnly) {
        // A read writes nothing that its audit row must commit with: no transaction to pay for.
        const result = await proceed();
        if (call.outcome?.isError) throw new FailedResult(result);
        await this.audit.recordBatched(event(successOutcome(call)));
        return result;
      }
      // Inside an already open transaction (a call replayed by an approval) this is a savepoint:
      // a failing call rolls back its own writes and is audited in the outer transaction.
      return await this.prisma.transaction(
        async () => {
          const result = await proceed();
          if (call.outcome?.isError) throw new FailedResult(result);
          await this.audit.record(event(successOutcome(call)));
          return result;
        },
        { savepoint: true, ...this.transactionLimit(call) },
      );
    } catch (failure) {
      if (failure instanceof FailedResult) {
        await this.audit.record(event('failed', call.outcome?.errorCode));
        return failure.result as T;
      }
      const [outcome, code] = stoppedTask(call) ?? classifyFailure(failure);
      await this.audit
        .record(event(outcome, code))
        .catch((error: Error) => this.logger.error(`Could not audit a failed ${call.method}: ${error.message}`));
      throw failure;
    }
  }

  /**
   * A task's run (`call.context.taskRun`) is long work by design (a statement export over a year
   * of invoices): its transaction may stay open as long as the task may run (`tasks.maxRunMs`),
   * not the 15 s that bound a request's. What it does still commits once, at its end: its writes,
   * this audit row and the task's `completed` together, or nothing at all (a cancel, a timeout, a
   * crash), whatever the tool writes. Long reads hold no database transaction meanwhile: `BEGIN`
   * goes out with the transaction's first statement, and work that reads before it writes (the
   * statement export) reads outside it until then (`PrismaService.readBeforeWrites`), so minutes
   * of paging keep no snapshot or lock, and on the embedded database (one backend) other requests
   * (the client's `tasks/get`, a cancel) run between its pages. What it costs: one pooled
   * connection checked out per running task (at most `tasks.maxRunningPerWorkspace` per
   * workspace). The worker stops a run at `maxRunMs` (its signal, with the clear "ran longer than
   * its limit" error); the transaction's own limit, a little later, is the backstop for a handler
   * that ignores its signal.
   */
  private transactionLimit(call: McpCall): { limitMs?: number } {
    return call.context.taskRun ? { limitMs: this.mcp.tasks.maxRunMs + TASK_RUN_TRANSACTION_MARGIN_MS } : {};
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

/** `queued` when the call was accepted as a task or a queued job (the work runs later, audited then), else `success`. */
function successOutcome(call: McpCall): AuditOutcome {
  return call.outcome?.status === 'queued' ? 'queued' : 'success';
}

/**
 * A task's run stopped by the layer (its signal aborted with a `TaskStopped` reason): `cancelled`
 * by the client or a person, past `maxRunMs`, or cut by a shutdown (it runs again). Nothing it did
 * was kept; the row says why rather than a bare internal error.
 */
function stoppedTask(call: McpCall): [AuditOutcome, string] | undefined {
  const signal = call.context.taskRun ? call.context.signal : undefined;
  if (!signal?.aborted) return undefined;
  const why = (signal.reason as { why?: unknown } | undefined)?.why;
  if (why === 'cancelled') return ['cancelled', 'task_cancelled'];
  if (why === 'timed-out') return ['error', 'task_timed_out'];
  if (why === 'shutdown') return ['error', 'task_interrupted'];
  return undefined;
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
