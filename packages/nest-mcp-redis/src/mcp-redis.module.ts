import { Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { redactUrl } from './connection/redact-url.js';
import { RedisConnection } from './connection/redis-connection.js';
import { MCP_REDIS_MODULE_OPTIONS, McpRedisConfigurableModule } from './mcp-redis.module-definition.js';
import { MCP_REDIS_OPTIONS, type ResolvedMcpRedisOptions } from './options/mcp-redis.options.js';
import { resolveMcpRedisOptions } from './options/resolve-options.js';

/**
 * Redis for `@nest-mcp/core`: `McpRedisModule.forRoot({ url })` (or `forRootAsync`) once, in the
 * root module; then `McpModule.forRoot({ streams: true, ...mcpRedisStreamExtensions() })` puts
 * stream mode's three backends in it (mcp-redis.extensions.ts). The module owns one
 * `RedisConnection`: it connects at boot (waiting up to `bootWaitMs`, then warning and going on
 * while it keeps trying) and closes it when the application shuts down.
 */
@Module({
  providers: [
    { provide: MCP_REDIS_OPTIONS, useFactory: resolveMcpRedisOptions, inject: [MCP_REDIS_MODULE_OPTIONS] },
    {
      provide: RedisConnection,
      useFactory: (options: ResolvedMcpRedisOptions) => new RedisConnection(options.url, options.keyPrefix),
      inject: [MCP_REDIS_OPTIONS],
    },
  ],
  exports: [MCP_REDIS_OPTIONS, RedisConnection],
})
export class McpRedisModule extends McpRedisConfigurableModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpRedisModule');

  constructor(
    private readonly connection: RedisConnection,
    @Inject(MCP_REDIS_OPTIONS) private readonly options: ResolvedMcpRedisOptions,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    const where = `Redis at ${redactUrl(this.options.url)} (keys ${this.options.keyPrefix}:*)`;
    this.connection.connectInBackground();
    if (await ready(this.connection, this.options.bootWaitMs)) this.logger.log(where);
    else this.logger.warn(`${where} did not answer within ${this.options.bootWaitMs} ms: its commands fail until it does`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}

/** Whether the connection is ready within `ms` (it keeps trying after that). */
function ready(connection: RedisConnection, ms: number): Promise<boolean> {
  const commands = connection.commands;
  if (commands.isReady || ms === 0) return Promise.resolve(commands.isReady);
  return new Promise((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      commands.off('ready', onReady);
      resolve(false);
    }, ms);
    commands.once('ready', onReady);
  });
}
