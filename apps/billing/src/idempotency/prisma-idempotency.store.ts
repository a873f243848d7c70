import type { CallToolResult } from '@modelcontextprotocol/server';
import { ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestContext } from '../context/request-context.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../database/prisma.service.js';
import { principalOf } from '../identity/request-principal.js';
import { WorkspaceResolver } from '../identity/workspace.resolver.js';
import type { IdempotencyClaim, IdempotentCall, McpIdempotencyStore } from '@nest-mcp/core';
import type { Request } from 'express';
import { nextStep, type StoredRecord } from './idempotency-claim.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * A keyed REST request: `tool` is the operation (`POST /v1/payments/:payment_id/refunds`), and the
 * stored answer is the response (see `RestIdempotencyInterceptor`).
 */
export interface IdempotentRequest {
  tool: string;
  key: string;
  argumentsHash: string;
  httpRequest: Request;
  /** The body, for a `workspace_id` in it. */
  input: unknown;
}

/** A keyed MCP tool call or REST request: one store, one table, one claim for both. */
export type IdempotentOperation = IdempotentCall | IdempotentRequest;

/** Scope of calls that act in no workspace, or by no known caller (the schema's convention). */
const NO_WORKSPACE = '-';
const NO_CALLER = '-';
/** Look-agains of one claim: a row deleted by cleanup, or a first call that is not in a transaction. */
const MAX_ATTEMPTS = 20;
const RETRY_PAUSE_MS = 100;

/**
 * Idempotency keys in `idempotency_records`, decided by the table's primary key
 * (scope, tool, key), not by a lock in this process, so it holds across replicas.
 *
 * The claim runs in the call's transaction (`AuditCallHook` opens one for every MCP call that may
 * write, `RestIdempotencyInterceptor` one for every keyed REST write): its INSERT makes the row,
 * the tool runs, `save` writes the answer into it, and the transaction commits all three (with the
 * audit event), or rolls all back (a failed call leaves the key free). A concurrent call with the same key blocks in its own INSERT until that transaction
 * ends (PostgreSQL waits on the uncommitted key), then reads the committed answer: losers never run
 * the tool, and they get the winner's answer. Without a transaction (nothing in this app claims
 * so) each statement commits alone: the row then marks a call in progress and others poll it.
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

  constructor(
    private readonly prisma: PrismaService,
    private readonly workspaces: WorkspaceResolver,
    @Inject(IDEMPOTENCY_CONFIG) private readonly config: IdempotencyConfig,
  ) {}

  async claim<R = CallToolResult>(call: IdempotentOperation): Promise<IdempotencyClaim<R>> {
    const scope = this.scopeOf(call);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // DO NOTHING, not DO UPDATE … WHERE expired: DO UPDATE locks the existing row even when its
      // WHERE is false, so every replay of a key would queue behind the previous one's commit.
      const inserted = await this.prisma.sql(Prisma.sql`
        INSERT INTO idempotency_records (scope, tool, key, arguments_hash, expires_at)
        VALUES (${scope}, ${call.tool}, ${call.key}, ${call.argumentsHash},
                (now() AT TIME ZONE 'UTC') + ${this.config.ttlSeconds}::integer * interval '1 second')
        ON CONFLICT (scope, tool, key) DO NOTHING
        RETURNING 1 AS claimed`);
      if (inserted.rowCount) return { kind: 'first' };

      const {
        rows: [row],
      } = await this.prisma.sql<StoredRecord>(Prisma.sql`
        SELECT arguments_hash AS "argumentsHash", result #>> '{}' AS "resultJson",
               expires_at < (now() AT TIME ZONE 'UTC') AS expired
        FROM idempotency_records WHERE scope = ${scope} AND tool = ${call.tool} AND key = ${call.key}`);
      const step = nextStep<R>(row, call.argumentsHash);
      if (step.kind === 'reuse_expired') {
        // The WHERE re-checks expiry under the row lock: of two calls reusing one expired key, one wins.
        const taken = await this.prisma.sql(Prisma.sql`
          UPDATE idempotency_records
          SET arguments_hash = ${call.argumentsHash}, result = NULL, created_at = now() AT TIME ZONE 'UTC',
              expires_at = (now() AT TIME ZONE 'UTC') + ${this.config.ttlSeconds}::integer * interval '1 second'
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
    const save = Prisma.sql`
      UPDATE idempotency_records SET result = to_jsonb(${JSON.stringify(result)}::text)
      WHERE scope = ${this.scopeOf(call)} AND tool = ${call.tool} AND key = ${call.key}`;
    // In the call's transaction, the row is the one its claim made: the answer goes with the
    // commit (with the audit row, one round trip).
    if (this.prisma.inTransaction) return this.prisma.sqlBeforeCommit(save);
    const saved = await this.prisma.sql(save);
    // Not an error for the caller (the tool did run), but the next repeat would run it again.
    if (saved.rowCount !== 1)
      this.logger.warn(`No idempotency record to save for ${call.tool} (scope ${this.scopeOf(call)}): the answer is not kept`);
  }

  async release(call: IdempotentOperation): Promise<void> {
    await this.prisma.sql(Prisma.sql`
      DELETE FROM idempotency_records WHERE scope = ${this.scopeOf(call)} AND tool = ${call.tool} AND key = ${call.key}`);
  }

  /**
   * The workspace the call acts in: keys of two workspaces must never meet, or one tenant could
   * replay another's answer. Claims run after the guards, so `WorkspaceGuard` has normally put it
   * in the request context; otherwise (a route or tool outside any workspace, or a claim made
   * outside the pipeline) it is resolved the same way (token, `workspace_id` argument, header,
   * query). Calls that resolve no workspace share the scope `-`.
   */
  /**
   * `<workspace id>:<user id>`: keys belong to one person in one workspace, as a payment API scopes
   * them per account, so another member replaying a key runs their own call instead of reading
   * someone else's answer. A call a person approved for someone else keeps the requester's keys.
   */
  private scopeOf(call: IdempotentOperation): string {
    let scope = this.scopes.get(call);
    if (scope === undefined) {
      scope = `${this.resolveWorkspace(call) ?? NO_WORKSPACE}:${this.callerOf(call) ?? NO_CALLER}`;
      this.scopes.set(call, scope);
    }
    return scope;
  }

  private callerOf(call: IdempotentOperation): string | undefined {
    const request = 'invocation' in call ? call.invocation.httpRequest : call.httpRequest;
    const principal = RequestContext.current()?.principal ?? (request ? principalOf(request) : undefined);
    return principal ? (principal.onBehalfOf ?? principal.userId) : undefined;
  }

  private resolveWorkspace(call: IdempotentOperation): string | undefined {
    const state = RequestContext.current();
    if (state?.workspace) return state.workspace.id;
    const [request, input] = 'invocation' in call ? [call.invocation.httpRequest, call.invocation.input] : [call.httpRequest, call.input];
    const principal = state?.principal ?? (request ? principalOf(request) : undefined);
    if (!principal) return undefined;
    const argument = (input as { workspace_id?: unknown } | undefined)?.workspace_id;
    try {
      return this.workspaces.resolve(request, principal, argument).workspaceId;
    } catch {
      return undefined;
    }
  }
}
