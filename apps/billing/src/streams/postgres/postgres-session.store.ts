import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server';
import type { McpSession, McpSessionPatch, McpSessionStore } from '@nest-mcp/core';
import { PrismaService } from '../../database/prisma.service.js';

/**
 * Sessions in `mcp_sessions`, their subscriptions in `mcp_session_subscriptions` (one row per
 * URI, keyed by its SHA-256, deleted with the session), read by every replica. Always on the
 * pool's own connections (`outsideTransaction`), never in a request's transaction: a session
 * outlives any call, and a call that rolls back must not take `logging/setLevel` or a
 * subscription with it. An expired row is unknown at once (`expires_at` is checked on read); the
 * cleanup deletes it (and its subscriptions) later.
 *
 * The caps (sessions per caller, subscriptions per session) are checked by the statement that
 * inserts, so two replicas cannot both see room for one more unless their inserts run at the
 * same instant (a concurrent pair can overshoot by the number of racing requests, never grow it
 * without bound).
 */
@Injectable()
export class PostgresSessionStore implements McpSessionStore {
  constructor(private readonly prisma: PrismaService) {}

  create(session: McpSession, maxPerCaller: number): Promise<boolean> {
    return this.prisma.outsideTransaction(async () => {
      const inserted = await this.prisma.client.$executeRaw`
        INSERT INTO mcp_sessions (id, caller_key, protocol_version, client_info, client_capabilities, log_level,
                                  standalone_stream, delivered, created_at, expires_at)
        SELECT ${session.id}, ${session.callerKey}, ${session.protocolVersion}, ${json(session.clientInfo)}::jsonb,
               ${json(session.clientCapabilities)}::jsonb, ${session.logLevel ?? null}, ${session.standaloneStream ?? null},
               ${session.delivered ?? null}, ${utc(session.createdAt)}::timestamp, ${utc(session.expiresAt)}::timestamp
        WHERE (SELECT count(*) FROM mcp_sessions
               WHERE caller_key = ${session.callerKey} AND expires_at > ${utc(new Date())}::timestamp) < ${maxPerCaller}`;
      return inserted === 1;
    });
  }

  get(id: string): Promise<McpSession | undefined> {
    return this.prisma.outsideTransaction(async () => {
      const row = await this.prisma.client.mcpSession.findFirst({ where: { id, expiresAt: { gt: new Date() } } });
      if (!row) return undefined;
      return {
        id: row.id,
        callerKey: row.callerKey,
        protocolVersion: row.protocolVersion,
        ...(row.clientInfo ? { clientInfo: row.clientInfo as unknown as Implementation } : {}),
        clientCapabilities: row.clientCapabilities as ClientCapabilities,
        ...(row.logLevel ? { logLevel: row.logLevel as LoggingLevel } : {}),
        ...(row.standaloneStream !== null ? { standaloneStream: row.standaloneStream } : {}),
        ...(row.delivered !== null ? { delivered: row.delivered } : {}),
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      };
    });
  }

  update(id: string, patch: McpSessionPatch): Promise<void> {
    const data = {
      ...('logLevel' in patch ? { logLevel: patch.logLevel ?? null } : {}),
      ...('standaloneStream' in patch ? { standaloneStream: patch.standaloneStream ?? null } : {}),
      ...('delivered' in patch ? { delivered: patch.delivered ?? null } : {}),
      ...(patch.expiresAt ? { expiresAt: patch.expiresAt } : {}),
    };
    if (!Object.keys(data).length) return Promise.resolve();
    return this.prisma.outsideTransaction(async () => {
      // updateMany: an unknown (or already expired) id is a no-op, not an error.
      await this.prisma.client.mcpSession.updateMany({ where: { id, expiresAt: { gt: new Date() } }, data });
    });
  }

  delete(id: string): Promise<void> {
    // Its subscriptions go with it (ON DELETE CASCADE).
    return this.prisma.outsideTransaction(async () => {
      await this.prisma.client.mcpSession.deleteMany({ where: { id } });
    });
  }

  subscribe(id: string, uri: string, maxPerSession: number): Promise<boolean> {
    const hash = uriHash(uri);
    return this.prisma.outsideTransaction(async () => {
      // One statement: the session is live, and either already subscribed (no new row) or below the
      // cap. (A data-modifying WITH query runs whether or not the outer query reads it; a
      // concurrent insert of the same URI makes ON CONFLICT skip the row, and it is subscribed.)
      const rows = await this.prisma.client.$queryRaw<Array<{ subscribed: boolean }>>`
        WITH live AS (
          SELECT id FROM mcp_sessions WHERE id = ${id} AND expires_at > ${utc(new Date())}::timestamp
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
        SELECT EXISTS (SELECT 1 FROM live) AND (EXISTS (SELECT 1 FROM already) OR (SELECT ok FROM room)) AS subscribed`;
      return rows[0]?.subscribed === true;
    });
  }

  unsubscribe(id: string, uri: string): Promise<void> {
    return this.prisma.outsideTransaction(async () => {
      await this.prisma.client.mcpSessionSubscription.deleteMany({ where: { sessionId: id, uriHash: uriHash(uri) } });
    });
  }

  subscribersOf(uri: string): Promise<string[]> {
    return this.prisma.outsideTransaction(async () => {
      const rows = await this.prisma.client.mcpSessionSubscription.findMany({
        where: { uriHash: uriHash(uri), session: { expiresAt: { gt: new Date() } } },
        select: { sessionId: true },
      });
      return rows.map((row) => row.sessionId);
    });
  }
}

/** The key of a URI in `mcp_session_subscriptions`: SHA-256 of its UTF-8, hex (as the migration computes it). */
function uriHash(uri: string): string {
  return createHash('sha256').update(uri, 'utf8').digest('hex');
}

/** A timestamp for a `timestamp(3)` column (UTC, as Prisma stores them), whatever the process's time zone. */
function utc(date: Date): string {
  return date.toISOString();
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
