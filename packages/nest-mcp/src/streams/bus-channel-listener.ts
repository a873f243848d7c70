import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpStreamBackends } from './stream-backends.provider.js';

/**
 * A stream-mode provider that hears one bus channel on every replica, from application start until
 * its module is destroyed. With stream mode off nothing can publish, so it subscribes to nothing.
 * Subclasses inherit the constructor (and so its injections).
 */
@Injectable()
export abstract class BusChannelListener implements OnApplicationBootstrap, OnModuleDestroy {
  private unsubscribe?: () => Promise<void>;

  constructor(
    @Inject(MCP_OPTIONS) protected readonly options: ResolvedMcpOptions,
    protected readonly backends: McpStreamBackends,
  ) {}

  protected abstract readonly channel: string;

  /** One message of `channel`, as published by any replica (this one included). */
  protected abstract heard(payload: unknown): void;

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.streams) return;
    this.unsubscribe = await this.backends.bus.subscribe(this.channel, (payload) => this.heard(payload));
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.();
  }
}
