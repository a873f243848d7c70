import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './mcp-options.interface.js';

export const {
  ConfigurableModuleClass: McpConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>().setClassMethodName('forRoot').build();
