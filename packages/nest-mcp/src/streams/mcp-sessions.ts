import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { headerValue } from '../protocol/protocol-version.js';
import { McpStreamBackends } from './stream-backends.provider.js';
import type { McpSession } from '../contracts/stream-backends.js';

export const HEADER_SESSION_ID = 'mcp-session-id';

/**
 * Handshake-era sessions in stream mode (Streamable HTTP, "Session Management"): `initialize`
 * creates one and its id goes back in `Mcp-Session-Id`; every later request must carry it. An
 * unknown or expired id, or one used with another caller's credentials, is `404` (the client
 * starts over with `initialize`); the store, not this process, holds them, so any replica can
 * serve any request of a session.
 */
@Injectable()
export class McpSessions {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly backends: McpStreamBackends,
  ) {}

  async create(fields: {
    callerKey: string;
    protocolVersion: string;
    clientInfo?: Implementation;
    clientCapabilities: ClientCapabilities;
  }): Promise<McpSession> {
    const now = Date.now();
    const session: McpSession = {
      id: randomUUID(),
      ...fields,
      subscriptions: [],
      createdAt: new Date(now),
      expiresAt: new Date(now + this.ttlMs),
    };
    await this.backends.sessions.create(session);
    return session;
  }

  /** The session a request names, checked against its caller; its expiry pushed forward. */
  async require(req: Request, callerKey: string): Promise<McpSession> {
    const id = headerValue(req.headers, HEADER_SESSION_ID);
    if (!id) {
      throw McpProtocolError.invalidRequest('Bad request: Mcp-Session-Id header is required (send initialize first to get one)');
    }
    const session = await this.backends.sessions.get(id);
    if (!session || session.callerKey !== callerKey) throw sessionNotFound();
    // Sliding expiry, written at most once per tenth of the TTL: not one write per request.
    const expiresAt = Date.now() + this.ttlMs;
    if (expiresAt - session.expiresAt.getTime() > this.ttlMs / 10) {
      session.expiresAt = new Date(expiresAt);
      await this.backends.sessions.update(id, { expiresAt: session.expiresAt });
    }
    return session;
  }

  async end(session: McpSession): Promise<void> {
    await this.backends.sessions.delete(session.id);
  }

  async setLogLevel(session: McpSession, level: LoggingLevel): Promise<void> {
    session.logLevel = level;
    await this.backends.sessions.update(session.id, { logLevel: level });
  }

  /** Adds or removes one subscription. Read-modify-write of the list: a session's requests rarely race. */
  async setSubscribed(session: McpSession, uri: string, subscribed: boolean): Promise<void> {
    const current = (await this.backends.sessions.get(session.id))?.subscriptions ?? session.subscriptions;
    const next = subscribed ? [...new Set([...current, uri])] : current.filter((u) => u !== uri);
    session.subscriptions = next;
    await this.backends.sessions.update(session.id, { subscriptions: next });
  }

  private get ttlMs(): number {
    return this.options.streams!.sessionTtlSeconds * 1000;
  }
}

export function sessionNotFound(): McpProtocolError {
  return new McpProtocolError(
    McpErrorCode.SessionNotFound,
    'Session not found: it expired, was ended, or belongs to another caller. Send initialize to start a new session.',
    HttpStatus.NOT_FOUND,
  );
}
