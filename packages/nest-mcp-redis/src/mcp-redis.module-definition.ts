import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpRedisOptions } from './options/mcp-redis.options.js';

export const { ConfigurableModuleClass: McpRedisConfigurableModule, MODULE_OPTIONS_TOKEN: MCP_REDIS_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<McpRedisOptions>()
    .setClassMethodName('forRoot')
    // Global: the layer's `McpModule` reaches the connection and the options (mcpRedisStreamExtensions()),
    // wherever they are imported from.
    .setExtras({}, (definition) => ({ ...definition, global: true }))
    .build();
