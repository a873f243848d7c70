import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions, ResolvedStreamOptions } from '../options/mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { headerValue } from '../protocol/protocol-version.js';
import { McpStreamBackends } from './stream-backends.provider.js';
import type { McpSession } from '../invocation/mcp-session.js';

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

  /**
   * Stores a new session for `initialize`, unless its caller already has `maxSessionsPerCaller`
   * live ones: then `409` with `-32600` saying how to free one (nothing is stored).
   */
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
      clientCapabilities: capabilitySummary(fields.clientCapabilities),
      createdAt: new Date(now),
      expiresAt: new Date(now + this.ttlMs),
    };
    const max = this.limits.maxSessionsPerCaller;
    if (!(await this.backends.sessions.create(session, max))) {
      throw new McpProtocolError(
        McpErrorCode.InvalidRequest,
        `Too many open sessions for this caller (${max}): end one with DELETE (its Mcp-Session-Id) or let it expire ` +
          `(after ${this.limits.sessionTtlSeconds} s unused), then send initialize again`,
        HttpStatus.CONFLICT,
      );
    }
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

  /**
   * `resources/subscribe`: at most `maxSubscriptionsPerSession` URIs per session; past it the
   * request fails with `-32600` (the session's earlier subscriptions stay).
   */
  async subscribe(session: McpSession, uri: string): Promise<void> {
    const max = this.limits.maxSubscriptionsPerSession;
    if (await this.backends.sessions.subscribe(session.id, uri, max)) return;
    // Refused: full, or the session ended since this request found it.
    if (!(await this.backends.sessions.get(session.id))) throw sessionNotFound();
    throw McpProtocolError.invalidRequest(
      `This session already has ${max} subscriptions: unsubscribe from one first (resources/unsubscribe)`,
      HttpStatus.OK,
    );
  }

  async unsubscribe(session: McpSession, uri: string): Promise<void> {
    await this.backends.sessions.unsubscribe(session.id, uri);
  }

  private get ttlMs(): number {
    return this.limits.sessionTtlSeconds * 1000;
  }

  private get limits(): ResolvedStreamOptions {
    return this.options.streams!;
  }
}

export function sessionNotFound(): McpProtocolError {
  return new McpProtocolError(
    McpErrorCode.SessionNotFound,
    'Session not found: it expired, was ended, or belongs to another caller. Send initialize to start a new session.',
    HttpStatus.NOT_FOUND,
  );
}

/**
 * What the layer reads of a client's `initialize` capabilities, and nothing else: whether it
 * declared `elicitation` (and which of its modes, `form` / `url`: an empty object means form),
 * `sampling` and `roots`, each with its contents dropped. A session's size does not depend on what
 * the client sends (`experimental` or any other key is not kept).
 */
export function capabilitySummary(capabilities: ClientCapabilities): ClientCapabilities {
  const summary: ClientCapabilities = {};
  const { elicitation, sampling, roots } = capabilities as Record<string, unknown>;
  if (isPlainObject(elicitation)) {
    summary.elicitation = {
      ...('form' in elicitation ? { form: {} } : {}),
      ...('url' in elicitation ? { url: {} } : {}),
    };
  }
  if (sampling) summary.sampling = {};
  if (roots) summary.roots = {};
  return summary;
}
