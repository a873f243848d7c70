import type { JSONRPCNotification } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpStreamBackends } from './stream-backends.provider.js';
import { SESSION_MESSAGE_CHANNEL, type SessionMessage } from './session-messages.js';
import { standaloneStreamId } from './stream-ids.js';

/**
 * What an application calls when a resource changed (after the write committed), whatever the
 * channel of the write: each session subscribed to the URI gets `notifications/resources/updated`
 * on its standalone stream. The replica that announces the change writes one event per subscribed
 * session into that session's standalone stream (its backlog, delivered on the next `GET` when no
 * stream is open) and tells the replicas on the bus; the one holding the session's current stream
 * delivers it, once, to a caller who may still read the resource.
 */
@Injectable()
export class McpResourceUpdates {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly backends: McpStreamBackends,
  ) {}

  /** Announces that the resource at `uri` changed. Without stream mode nobody can subscribe: nothing to do. */
  async changed(uri: string): Promise<void> {
    if (!this.options.streams) return;
    const message: JSONRPCNotification = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
    const subscribers = await this.backends.sessions.subscribersOf(uri);
    await Promise.all(
      subscribers.map(async (sessionId) => {
        const eventId = await this.backends.events.append(standaloneStreamId(sessionId), message);
        await this.backends.bus.publish(SESSION_MESSAGE_CHANNEL, { sessionId, eventId, message } satisfies SessionMessage);
      }),
    );
  }
}
