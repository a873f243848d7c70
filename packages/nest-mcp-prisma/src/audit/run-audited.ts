import { HttpException, Logger } from '@nestjs/common';
import { McpProtocolError } from '@nest-mcp/core';
import type { McpDatabase } from '../database/mcp-database.js';
import type { McpAuditLog } from './mcp-audit-log.js';
import type { AuditOutcome, AuditRecord } from './audit-record.js';

/** How work that returned ended: a `failed` end is a result whose writes must not stay, though its caller still gets it. */
export type AuditedEnd = { outcome: 'success' | 'queued' } | { outcome: 'failed'; errorCode?: string };

/** What `runAudited` needs to know of one piece of work, from the channel that runs it. */
export interface AuditedRun<T> {
  /** The work, as it is named in the log when the row of its failure cannot be written. */
  name: string;
  /** The audit row of an outcome (the channel's own fields: who, what, how long). */
  event(outcome: AuditOutcome, errorCode: string | undefined): AuditRecord;
  /** A read: nothing for its row to commit with, so no transaction; its success row is batched with others. */
  readOnly?: boolean;
  /** The transaction's options (`McpDatabase.transaction`): a savepoint inside an open one, a longer limit. */
  transaction?: { savepoint?: boolean; limitMs?: number };
  /** How work that returned ended; `success` unless said. */
  ended?(result: T): AuditedEnd;
  /** The outcome and error code of work that threw (`classifyFailure` unless said), or `null` when its row is written elsewhere. */
  thrown?(failure: unknown): [AuditOutcome, string] | null;
}

/** A result that ended `failed`: thrown to roll the transaction back, then returned. */
class FailedResult {
  constructor(
    readonly result: unknown,
    readonly errorCode: string | undefined,
  ) {}
}

const logger = new Logger('Audit');

/**
 * Work and its audit row, once for every channel (the MCP call hook, an application's REST
 * writes): the work runs in one transaction with its row, which commits with its writes; work
 * that fails (a `failed` end, a throw) rolls its writes back and is audited on its own. So there
 * is never a write without its audit, nor an audit of a write that did not happen. A read runs
 * without a transaction, audited all the same.
 *
 * The row of a failed result is written before the result is returned, and an error writing it is
 * the caller's; the row of a throw must not hide the error that caused it, so a failure to write
 * it is only logged.
 */
export async function runAudited<T>(database: McpDatabase, audit: McpAuditLog, work: () => Promise<T>, run: AuditedRun<T>): Promise<T> {
  const done = (result: T): AuditRecord => {
    const end = run.ended?.(result) ?? { outcome: 'success' };
    if (end.outcome === 'failed') throw new FailedResult(result, end.errorCode);
    return run.event(end.outcome, undefined);
  };
  try {
    if (run.readOnly) {
      const result = await work();
      await audit.recordBatched(done(result));
      return result;
    }
    // Inside an already open transaction, with `savepoint`, failing work rolls back its own writes
    // and is audited in the outer transaction.
    return await database.transaction(async () => {
      const result = await work();
      await audit.record(done(result));
      return result;
    }, run.transaction);
  } catch (failure) {
    if (failure instanceof FailedResult) {
      await audit.record(run.event('failed', failure.errorCode));
      return failure.result as T;
    }
    const row = run.thrown ? run.thrown(failure) : classifyFailure(failure);
    if (!row) throw failure;
    await audit.record(run.event(...row)).catch((error: Error) => logger.error(`Could not audit a failed ${run.name}: ${error.message}`));
    throw failure;
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
