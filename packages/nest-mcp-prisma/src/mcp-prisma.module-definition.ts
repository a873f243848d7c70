import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpPrismaOptions } from './options/mcp-prisma.options.js';

export const {
  ConfigurableModuleClass: McpPrismaConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_PRISMA_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_PRISMA_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_PRISMA_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpPrismaOptions>()
  .setClassMethodName('forRoot')
  // Global: the application's Prisma client is built on `McpDatabase`, and the layer's
  // `McpModule` reaches the hook and the stores, wherever they are imported from.
  .setExtras({}, (definition) => ({ ...definition, global: true }))
  .build();
