import { Injectable } from '@nestjs/common';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { ResourcesHandler } from '../handlers/resources.handler.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { resourceUriParam } from '../protocol/resource-uri.js';
import { isLoggingLevel } from './call-stream.js';
import { McpSessions } from './mcp-sessions.js';
import type { McpSession } from '../invocation/mcp-session.js';

/**
 * The handshake-era methods that only exist in stream mode, because they change the session:
 * `logging/setLevel` (the least severe level the client wants) and `resources/subscribe` /
 * `resources/unsubscribe` (which URIs get `notifications/resources/updated` on the GET stream).
 */
@Injectable()
export class StreamMethodsHandler {
  constructor(
    private readonly sessions: McpSessions,
    private readonly resources: ResourcesHandler,
  ) {}

  async setLevel(params: Record<string, unknown>, context: McpRequestContext): Promise<Record<string, never>> {
    if (!isLoggingLevel(params.level)) {
      throw McpProtocolError.invalidParams(
        'Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency',
      );
    }
    await this.sessions.setLogLevel(sessionOf(context), params.level);
    return {};
  }

  async subscribe(params: Record<string, unknown>, context: McpRequestContext, subscribed: boolean): Promise<Record<string, never>> {
    const uri = resourceUriParam(params.uri);
    if (!subscribed) {
      await this.sessions.unsubscribe(sessionOf(context), uri);
      return {};
    }
    // Only what the caller could read, by exactly the check of `resources/read`: the read itself
    // (scopes, the app's guards and interceptors, the resource method), its content discarded. A
    // resource the caller may not read fails here as reading it fails; a subscription must not
    // reveal updates of a resource hidden from the caller. Not a call: no call hook, no audit row.
    await this.resources.read(params, context);
    await this.sessions.subscribe(sessionOf(context), uri);
    return {};
  }
}

function sessionOf(context: McpRequestContext): McpSession {
  // The controller resolves the session of every handshake-era request in stream mode.
  if (!context.session) throw McpProtocolError.invalidRequest('Bad request: this method needs a session (Mcp-Session-Id)');
  return context.session;
}
