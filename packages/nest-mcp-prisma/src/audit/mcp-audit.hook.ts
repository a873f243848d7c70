import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS, type McpCall, type McpCallHook, type McpTaskEnd, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { McpChannel } from '../channel/mcp-channel.js';
import { McpDatabase } from '../database/mcp-database.js';
import { MCP_PRISMA_OPTIONS, type ResolvedMcpPrismaOptions } from '../options/mcp-prisma.options.js';
import { McpAuditLog } from './mcp-audit-log.js';
import type { AuditOutcome, AuditRecord } from './audit-record.js';
import { redactArguments } from './redact.js';
import { classifyFailure, runAudited } from './run-audited.js';

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
/** A task's run may outlive the worker's own stop by this much before its transaction is rolled back (see `around`). */
const TASK_RUN_TRANSACTION_MARGIN_MS = 5_000;

/**
 * The layer's `callHook`: every MCP capability call that may write runs in one database
 * transaction with its audit row, and in the `mcp` channel (its rows are stamped
 * `created_via: mcp`; see `around`). The row commits with the call's writes; a call that fails (an `isError`
 * result, a refusal, a fault) rolls its writes back and is audited on its own. So there is never
 * a write without its audit, nor an audit of a write that did not happen. Reads (read-only tools,
 * resources, prompts) are audited too, without a transaction.
 *
 * Tools declared with `task` pass here twice: when the call is accepted (the task and its job are
 * created in the transaction, audited `queued`) and when a worker runs it (the work, audited
 * `success` / `failed` / `error`): one row says it was asked, one what was done. A task that ends
 * otherwise (a cancel, its caller refused at run time, a run given up) has its row from
 * `taskEnded`. Every row of a task carries its id (`task_id`).
 */
@Injectable()
export class McpAuditHook implements McpCallHook {
  constructor(
    private readonly database: McpDatabase,
    private readonly audit: McpAuditLog,
    @Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions,
    @Inject(MCP_PRISMA_OPTIONS) private readonly options: ResolvedMcpPrismaOptions,
  ) {}

  /**
   * In the `mcp` channel, unless the code that started the call set one (`McpChannel.run`: a call
   * a person approved on an admin page is replayed by that page, in its own channel). A task's run
   * on a worker takes the channel of the request the application's task callers restored (the
   * `channel` option: `api` for a job a REST route submitted), else `mcp`.
   */
  around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    if (McpChannel.current()) return this.audited(call, proceed);
    const channel = (call.context.taskRun && this.options.givenChannel?.()) || 'mcp';
    return McpChannel.run(channel, () => this.audited(call, proceed));
  }

  private audited<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    const started = performance.now();
    return runAudited(this.database, this.audit, proceed, {
      name: call.method,
      event: (outcome, errorCode) => this.event(call, outcome, errorCode, started),
      readOnly: call.readOnly,
      // Inside an already open transaction (a call replayed by an approval) this is a savepoint.
      transaction: { savepoint: true, ...this.transactionLimit(call) },
      // A tool result with `isError`: its writes must not stay, but the client still gets it.
      ended: () => (call.outcome?.isError ? { outcome: 'failed', errorCode: call.outcome.errorCode } : { outcome: successOutcome(call) }),
      thrown: (failure) => {
        const stopped = stoppedTask(call, failure);
        // A cancel has its row already, written where it was asked (`taskEnded`): one row per outcome.
        if (stopped?.[0] === 'cancelled') return null;
        return stopped ?? classifyFailure(failure);
      },
    });
  }

  /**
   * A task's run (`call.context.taskRun`) is long work by design: its transaction may stay open
   * as long as the task may run (`tasks.maxRunMs`), not the limit that bounds a request's. What it
   * does still commits once, at its end: its writes, this audit row and the task's `completed`
   * together, or nothing at all (a cancel, a timeout, a crash). The worker stops a run at
   * `maxRunMs` (its signal); the transaction's own limit, a little later, is the backstop for a
   * handler that ignores its signal.
   */
  private transactionLimit(call: McpCall): { limitMs?: number } {
    return call.context.taskRun ? { limitMs: this.mcp.tasks.maxRunMs + TASK_RUN_TRANSACTION_MARGIN_MS } : {};
  }

  /**
   * A task that ended without a run reaching `around`: cancelled (by the client, a person), its
   * caller refused when the run came (a revoked token, a removed member: `denied`), or given up.
   * One row, with the task's id, in the channel of the request that ended it (a REST cancel is
   * `api`), else `mcp`.
   */
  async taskEnded(call: McpCall, end: McpTaskEnd): Promise<void> {
    const outcome: AuditOutcome = end.outcome === 'cancelled' ? 'cancelled' : end.outcome === 'refused' ? 'denied' : 'error';
    const channel = McpChannel.current() ?? this.options.givenChannel?.() ?? 'mcp';
    await this.audit.record({ ...this.event(call, outcome, end.code, performance.now()), channel, taskId: end.taskId });
  }

  private event(call: McpCall, outcome: AuditOutcome, errorCode: string | undefined, started: number): AuditRecord {
    const traceparent = call.context.meta.traceparent;
    return {
      ...this.options.audit.actor(call),
      clientName: call.context.clientInfo?.name,
      clientVersion: call.context.clientInfo?.version,
      method: call.method,
      target: call.target,
      arguments: call.arguments === undefined ? undefined : redactArguments(call.arguments),
      outcome,
      errorCode,
      durationMs: Math.round(performance.now() - started),
      traceId: typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent)?.[1] : undefined,
      taskId: call.context.taskRun?.taskId ?? call.outcome?.taskId,
    };
  }
}

/** `queued` when the call was accepted as a task or a queued job (the work runs later, audited then), else `success`. */
function successOutcome(call: McpCall): 'success' | 'queued' {
  return call.outcome?.status === 'queued' ? 'queued' : 'success';
}

/**
 * A task's run stopped by the layer (its signal aborted with a reason that says why): `cancelled`
 * by the client or a person, past `maxRunMs`, or cut by a shutdown (it runs again). Nothing it did
 * was kept; the row says why rather than a bare internal error.
 */
function stoppedTask(call: McpCall, failure: unknown): [AuditOutcome, string] | undefined {
  if (!call.context.taskRun) return undefined;
  const signal = call.context.signal;
  // Stopped by its signal, or found cancelled when it came to record its completion.
  const reason = signal?.aborted ? signal.reason : failure;
  const why = (reason as { why?: unknown } | undefined)?.why;
  if (why === 'cancelled') return ['cancelled', 'task_cancelled'];
  if (why === 'timed-out') return ['error', 'task_timed_out'];
  if (why === 'shutdown') return ['error', 'task_interrupted'];
  return undefined;
}
