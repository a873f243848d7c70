import { ConfigurableModuleBuilder } from '@nestjs/common';
export const { ConfigurableModuleClass: McpConfigurableModule, MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS, OPTIONS_TYPE: MCP_OPTIONS_TYPE, ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE, } = new ConfigurableModuleBuilder()
    .setClassMethodName('forRoot')
    // Global by default: the host application's guards and controllers read the options and the
    // registry (e.g. to publish scopes) without importing the configured module again.
    .setExtras({ isGlobal: true }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .build();
//# sourceMappingURL=mcp.module-definition.js.map