import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { InMemoryEventStore } from './in-process/in-memory-event.store.js';
import { InMemorySessionStore } from './in-process/in-memory-session.store.js';
import { InProcessMessageBus } from './in-process/in-process-message.bus.js';
import {
  MCP_EVENT_STORE,
  MCP_MESSAGE_BUS,
  MCP_SESSION_STORE,
  type McpEventStore,
  type McpMessageBus,
  type McpSessionStore,
} from './stream-backends.js';

/**
 * The three backends stream mode runs on: the application's (shared by its replicas) when it
 * provides them under their tokens, else the in-process defaults (one replica). Says at boot
 * which one fills each, so a deployment of several replicas on in-process defaults is visible.
 */
@Injectable()
export class McpStreamBackends implements OnApplicationBootstrap {
  readonly sessions: McpSessionStore;
  readonly events: McpEventStore;
  readonly bus: McpMessageBus;
  private readonly provided: Record<'sessions' | 'events' | 'bus', boolean>;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Optional() @Inject(MCP_SESSION_STORE) sessions?: McpSessionStore,
    @Optional() @Inject(MCP_EVENT_STORE) events?: McpEventStore,
    @Optional() @Inject(MCP_MESSAGE_BUS) bus?: McpMessageBus,
  ) {
    this.provided = { sessions: !!sessions, events: !!events, bus: !!bus };
    this.sessions = sessions ?? new InMemorySessionStore();
    this.events = events ?? new InMemoryEventStore();
    this.bus = bus ?? new InProcessMessageBus();
  }

  onApplicationBootstrap(): void {
    if (!this.options.streams) return;
    const name = (backend: object, provided: boolean) => `${backend.constructor.name}${provided ? '' : ' (in-process: one replica only)'}`;
    new Logger('McpStreams').log(
      `Stream mode on. Sessions: ${name(this.sessions, this.provided.sessions)}; events: ${name(this.events, this.provided.events)}; ` +
        `bus: ${name(this.bus, this.provided.bus)}`,
    );
  }
}
