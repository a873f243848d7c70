import { createHash } from 'node:crypto';
import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server';
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { McpSession, McpSessionPatch, McpSessionStore } from '@nest-mcp/core/extensions';
import type { McpDatabase } from '../database/mcp-database.js';
import { utc } from './stream-limits.js';

/** An `mcp_sessions` row as `get` reads it. */
interface SessionRow {
  id: string;
  caller_key: string;
  protocol_version: string;
  client_info: Implementation | null;
  client_capabilities: ClientCapabilities;
  log_level: string | null;
  standalone_stream: string | null;
  delivered: string | null;
  created_at: Date;
  expires_at: Date;
}

/**
 * Stream mode's sessions in `mcp_sessions`, their subscriptions in `mcp_session_subscriptions`
 * (one row per URI, keyed by its SHA-256, deleted with the session), read by every replica. Always
 * on the pool's own connections (`outsideTransaction`), never in a request's transaction: a
 * session outlives any call, and a call that rolls back must not take `logging/setLevel` or a
 * subscription with it. An expired row is unknown at once (`expires_at` is checked on read); the
 * cleanup deletes it (and its subscriptions) later.
 *
 * The caps (sessions per caller, subscriptions per session) hold exactly across replicas: the
 * statement that inserts counts, in a short transaction of its own that first takes a
 * transaction-level advisory lock on the caller (or the session). Concurrent inserts for one
 * caller queue on that lock, and each counts what the previous ones committed; other callers
 * never wait. (Counting alone, under READ COMMITTED, let 40 racing creates on two replicas put 9
 * sessions under a cap of 5.)
 *
 * Timestamps are UTC `timestamp(3)` (Prisma's convention): instants are sent as ISO text and
 * read back with `AT TIME ZONE 'UTC'`, right whatever the session's TimeZone.
 */
export class PostgresSessionStore implements McpSessionStore {
  constructor(private readonly database: McpDatabase) {}

  create(session: McpSession, maxPerCaller: number): Promise<boolean> {
    return this.locked(`mcp_sessions:${session.callerKey}`, async () => {
      const inserted = await this.database.sql(sql`
        INSERT INTO mcp_sessions (id, caller_key, protocol_version, client_info, client_capabilities, log_level,
                                  standalone_stream, delivered, created_at, expires_at)
        SELECT ${session.id}, ${session.callerKey}, ${session.protocolVersion}, ${json(session.clientInfo)}::jsonb,
               ${json(session.clientCapabilities)}::jsonb, ${session.logLevel ?? null}, ${session.standaloneStream ?? null},
               ${session.delivered ?? null}, ${utc(session.createdAt)}, ${utc(session.expiresAt)}
        WHERE (SELECT count(*) FROM mcp_sessions
               WHERE caller_key = ${session.callerKey} AND expires_at > ${utc(new Date())}) < ${maxPerCaller}`);
      return inserted.rowCount === 1;
    });
  }

  get(id: string): Promise<McpSession | undefined> {
    return this.outside(async () => {
      const {
        rows: [row],
      } = await this.database.sql<SessionRow>(sql`
        SELECT id, caller_key, protocol_version, client_info, client_capabilities, log_level, standalone_stream, delivered,
               created_at AT TIME ZONE 'UTC' AS created_at, expires_at AT TIME ZONE 'UTC' AS expires_at
        FROM mcp_sessions WHERE id = ${id} AND expires_at > ${utc(new Date())}`);
      if (!row) return undefined;
      return {
        id: row.id,
        callerKey: row.caller_key,
        protocolVersion: row.protocol_version,
        ...(row.client_info ? { clientInfo: row.client_info } : {}),
        clientCapabilities: row.client_capabilities,
        ...(row.log_level ? { logLevel: row.log_level as LoggingLevel } : {}),
        ...(row.standalone_stream !== null ? { standaloneStream: row.standalone_stream } : {}),
        ...(row.delivered !== null ? { delivered: row.delivered } : {}),
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      };
    });
  }

  update(id: string, patch: McpSessionPatch): Promise<void> {
    const set: Sql[] = [
      ...('logLevel' in patch ? [sql`log_level = ${patch.logLevel ?? null}`] : []),
      ...('standaloneStream' in patch ? [sql`standalone_stream = ${patch.standaloneStream ?? null}`] : []),
      ...('delivered' in patch ? [sql`delivered = ${patch.delivered ?? null}`] : []),
      ...(patch.expiresAt ? [sql`expires_at = ${utc(patch.expiresAt)}`] : []),
    ];
    if (!set.length) return Promise.resolve();
    // An unknown (or already expired) id is a no-op, not an error.
    return this.outside(async () => {
      await this.database.sql(sql`UPDATE mcp_sessions SET ${join(set, ', ')} WHERE id = ${id} AND expires_at > ${utc(new Date())}`);
    });
  }

  delete(id: string): Promise<void> {
    // Its subscriptions go with it (ON DELETE CASCADE).
    return this.outside(async () => {
      await this.database.sql(sql`DELETE FROM mcp_sessions WHERE id = ${id}`);
    });
  }

  subscribe(id: string, uri: string, maxPerSession: number): Promise<boolean> {
    const hash = uriHash(uri);
    return this.locked(`mcp_session_subscriptions:${id}`, async () => {
      // One statement: the session is live, and either already subscribed (no new row) or below the
      // cap. (A data-modifying WITH query runs whether or not the outer query reads it; a
      // concurrent insert of the same URI makes ON CONFLICT skip the row, and it is subscribed.)
      const { rows } = await this.database.sql<{ subscribed: boolean }>(sql`
        WITH live AS (
          SELECT id FROM mcp_sessions WHERE id = ${id} AND expires_at > ${utc(new Date())}
        ), already AS (
          SELECT 1 FROM mcp_session_subscriptions WHERE session_id = ${id} AND uri_hash = ${hash}
        ), room AS (
          SELECT count(*) < ${maxPerSession} AS ok FROM mcp_session_subscriptions WHERE session_id = ${id}
        ), added AS (
          INSERT INTO mcp_session_subscriptions (session_id, uri_hash, uri)
          SELECT id, ${hash}, ${uri} FROM live
          WHERE NOT EXISTS (SELECT 1 FROM already) AND (SELECT ok FROM room)
          ON CONFLICT (session_id, uri_hash) DO NOTHING
        )
        SELECT EXISTS (SELECT 1 FROM live) AND (EXISTS (SELECT 1 FROM already) OR (SELECT ok FROM room)) AS subscribed`);
      return rows[0]?.subscribed === true;
    });
  }

  unsubscribe(id: string, uri: string): Promise<void> {
    return this.outside(async () => {
      await this.database.sql(sql`DELETE FROM mcp_session_subscriptions WHERE session_id = ${id} AND uri_hash = ${uriHash(uri)}`);
    });
  }

  subscribersOf(uri: string): Promise<string[]> {
    return this.outside(async () => {
      const { rows } = await this.database.sql<{ session_id: string }>(sql`
        SELECT s.session_id FROM mcp_session_subscriptions s JOIN mcp_sessions m ON m.id = s.session_id
        WHERE s.uri_hash = ${uriHash(uri)} AND m.expires_at > ${utc(new Date())}`);
      return rows.map((row) => row.session_id);
    });
  }

  private outside<T>(work: () => Promise<T>): Promise<T> {
    return this.database.outsideTransaction(work);
  }

  /** `work` in a transaction of its own (never the call's) holding the advisory lock of `key` until it commits. */
  private locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.outside(() =>
      this.database.transaction(async () => {
        await this.database.sql(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
        return work();
      }),
    );
  }
}

/** The key of a URI in `mcp_session_subscriptions`: SHA-256 of its UTF-8, hex. */
function uriHash(uri: string): string {
  return createHash('sha256').update(uri, 'utf8').digest('hex');
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
