import type { CallToolResult } from '@modelcontextprotocol/server';
import { ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { type IdempotencyClaim, MCP_OPTIONS, type McpIdempotencyStore, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { McpDatabase } from '../database/mcp-database.js';
import { MCP_PRISMA_OPTIONS, type IdempotencyScope, type ResolvedMcpPrismaOptions } from '../options/mcp-prisma.options.js';
import { nextStep, type StoredRecord } from './idempotency-claim.js';
import type { IdempotentOperation } from './idempotent-operation.js';

/** Scope of calls by no known caller. */
const NO_SCOPE = '-';
/** Look-agains of one claim: a row deleted by cleanup, or a first call that is not in a transaction. */
const MAX_ATTEMPTS = 20;
const RETRY_PAUSE_MS = 100;

/**
 * Idempotency keys in `mcp_idempotency_records`, decided by the table's primary key
 * (scope, tool, key), not by a lock in this process, so it holds across replicas.
 *
 * The claim runs in the call's transaction (`McpAuditHook` opens one for every MCP call that may
 * write): its INSERT makes the row, the tool runs, `save` writes the answer into it, and the
 * transaction commits all three (with the audit row), or rolls all back (a failed call leaves
 * the key free). A concurrent call with the same key blocks in its own INSERT until that
 * transaction ends (PostgreSQL waits on the uncommitted key), then reads the committed answer:
 * losers never run the tool, and they get the winner's answer. Without a transaction each
 * statement commits alone: the row then marks a call in progress and others poll it.
 *
 * Answers are stored as their JSON text (a JSON string in the `jsonb` column): `jsonb` reorders
 * object keys, and a replay must be byte-for-byte the first answer.
 *
 * `expires_at` is `timestamp` without time zone holding UTC (Prisma's convention), so SQL compares
 * it with `now() AT TIME ZONE 'UTC'`, right whatever the session's TimeZone.
 */
@Injectable()
export class PrismaIdempotencyStore implements McpIdempotencyStore {
  private readonly logger = new Logger('Idempotency');
  /** The scope decided at claim, reused by save/release (the same call object comes back). */
  private readonly scopes = new WeakMap<IdempotentOperation, string>();

  /** Whose keys a tool call's key is among: the application's `idempotency.scope`, else the caller. */
  private readonly scopeOfCall: IdempotencyScope;

  constructor(
    private readonly database: McpDatabase,
    @Inject(MCP_PRISMA_OPTIONS) private readonly options: ResolvedMcpPrismaOptions,
    @Inject(MCP_OPTIONS) mcp: ResolvedMcpOptions,
  ) {
    this.scopeOfCall = options.idempotency.scope ?? ((call) => mcp.callerKey(call.invocation.httpRequest));
  }

  async claim<R = CallToolResult>(call: IdempotentOperation): Promise<IdempotencyClaim<R>> {
    const scope = this.scopeOf(call);
    const ttlSeconds = this.options.idempotency.ttlSeconds;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // DO NOTHING, not DO UPDATE … WHERE expired: DO UPDATE locks the existing row even when its
      // WHERE is false, so every replay of a key would queue behind the previous one's commit.
      const inserted = await this.database.sql(sql`
        INSERT INTO mcp_idempotency_records (scope, tool, key, arguments_hash, expires_at)
        VALUES (${scope}, ${call.tool}, ${call.key}, ${call.argumentsHash},
                (now() AT TIME ZONE 'UTC') + ${ttlSeconds}::integer * interval '1 second')
        ON CONFLICT (scope, tool, key) DO NOTHING
        RETURNING 1 AS claimed`);
      if (inserted.rowCount) return { kind: 'first' };

      const {
        rows: [row],
      } = await this.database.sql<StoredRecord>(sql`
        SELECT arguments_hash AS "argumentsHash", result #>> '{}' AS "resultJson",
               expires_at < (now() AT TIME ZONE 'UTC') AS expired
        FROM mcp_idempotency_records WHERE scope = ${scope} AND tool = ${call.tool} AND key = ${call.key}`);
      const step = nextStep<R>(row, call.argumentsHash);
      if (step.kind === 'reuse_expired') {
        // The WHERE re-checks expiry under the row lock: of two calls reusing one expired key, one wins.
        const taken = await this.database.sql(sql`
          UPDATE mcp_idempotency_records
          SET arguments_hash = ${call.argumentsHash}, result = NULL, created_at = now() AT TIME ZONE 'UTC',
              expires_at = (now() AT TIME ZONE 'UTC') + ${ttlSeconds}::integer * interval '1 second'
          WHERE scope = ${scope} AND tool = ${call.tool} AND key = ${call.key} AND expires_at < (now() AT TIME ZONE 'UTC')
          RETURNING 1 AS claimed`);
        if (taken.rowCount) return { kind: 'first' };
      } else if (step.kind === 'retry') {
        if (row) await sleep(RETRY_PAUSE_MS); // an answer still to come; a vanished row is retried at once
      } else {
        return step;
      }
    }
    throw new ConflictException(
      `A ${call.tool} call with this idempotency_key is still running. Call again in a few seconds with the same key to get its answer.`,
    );
  }

  async save(call: IdempotentOperation, result: unknown): Promise<void> {
    const save = sql`
      UPDATE mcp_idempotency_records SET result = to_jsonb(${JSON.stringify(result)}::text)
      WHERE scope = ${this.scopeOf(call)} AND tool = ${call.tool} AND key = ${call.key}`;
    // In the call's transaction, the row is the one its claim made: the answer goes with the
    // commit (with the audit row, one round trip).
    if (this.database.inTransaction) return this.database.sqlBeforeCommit(save);
    const saved = await this.database.sql(save);
    // Not an error for the caller (the tool did run), but the next repeat would run it again.
    if (saved.rowCount !== 1)
      this.logger.warn(`No idempotency record to save for ${call.tool} (scope ${this.scopeOf(call)}): the answer is not kept`);
  }

  async release(call: IdempotentOperation): Promise<void> {
    await this.database.sql(sql`
      DELETE FROM mcp_idempotency_records WHERE scope = ${this.scopeOf(call)} AND tool = ${call.tool} AND key = ${call.key}`);
  }

  private scopeOf(call: IdempotentOperation): string {
    if ('scope' in call) return call.scope;
    let scope = this.scopes.get(call);
    if (scope === undefined) {
      scope = this.scopeOfCall(call) ?? NO_SCOPE;
      this.scopes.set(call, scope);
    }
    return scope;
  }
}
