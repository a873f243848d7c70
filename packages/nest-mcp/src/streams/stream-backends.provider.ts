import { Inject, Injectable } from '@nestjs/common';
import {
  MCP_EVENT_STORE,
  MCP_MESSAGE_BUS,
  MCP_SESSION_STORE,
  type McpEventStore,
  type McpMessageBus,
  type McpSessionStore,
} from '../contracts/stream-backends.js';

/**
 * The three backends stream mode runs on, as the module's extension points fill them
 * (`sessionStore`, `eventStore`, `messageBus`: the application's, shared by its replicas, else
 * the in-process defaults, and the boot report says which).
 */
@Injectable()
export class McpStreamBackends {
  constructor(
    @Inject(MCP_SESSION_STORE) readonly sessions: McpSessionStore,
    @Inject(MCP_EVENT_STORE) readonly events: McpEventStore,
    @Inject(MCP_MESSAGE_BUS) readonly bus: McpMessageBus,
  ) {}
}
