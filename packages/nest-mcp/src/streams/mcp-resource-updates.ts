import { Injectable } from '@nestjs/common';
import { McpStreamBackends } from './stream-backends.provider.js';
import { MCP_RESOURCE_UPDATED_CHANNEL } from '../contracts/stream-backends.js';

/** What an application calls when a resource changed, if it has no shared bus of its own to publish on. */
@Injectable()
export class McpResourceUpdates {
  constructor(private readonly backends: McpStreamBackends) {}

  /** Announces that the resource at `uri` changed: subscribed sessions get `notifications/resources/updated`. */
  async changed(uri: string): Promise<void> {
    await this.backends.bus.publish(MCP_RESOURCE_UPDATED_CHANNEL, { uri });
  }
}
