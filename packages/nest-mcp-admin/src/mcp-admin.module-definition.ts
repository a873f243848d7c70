import { ConfigurableModuleBuilder, Controller, type DynamicModule, type Type } from '@nestjs/common';
import { MCP_ADMIN_PATH, type McpAdminOptions } from './options/mcp-admin.options.js';
import { resolveMountPath } from './options/resolve-options.js';
import { AdminPagesController } from './pages/admin-pages.controller.js';

/** Given to `forRoot` / `forRootAsync` beside the options: known before any factory runs (routes are made from them). */
export interface McpAdminMountOptions {
  /** Where the pages are mounted. Default: `/admin`. */
  path?: string;
  /**
   * Class decorators for the pages' controller: e.g. your app's "public route" marker, so that its
   * global guards (bearer tokens) let the pages through (they check the person themselves).
   */
  pageDecorators?: ClassDecorator[];
}

export const {
  ConfigurableModuleClass: McpAdminConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_ADMIN_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_ADMIN_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ADMIN_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpAdminOptions>()
  .setClassMethodName('forRoot')
  // Global: the layer's `McpModule` reaches the approval links, and an app's own status tool `McpApprovals`, wherever they are.
  .setExtras<McpAdminMountOptions>({ path: undefined, pageDecorators: [] }, (definition, extras) => mounted(definition, extras))
  .build();

/** The module with its pages' controller at `path`: a class of its own per module, with the app's decorators. */
function mounted(definition: DynamicModule, extras: McpAdminMountOptions): DynamicModule {
  const path = resolveMountPath(extras.path);
  const Pages: Type = class McpAdminPagesController extends AdminPagesController {};
  Controller(path)(Pages);
  for (const decorate of extras.pageDecorators ?? []) decorate(Pages);
  return {
    ...definition,
    global: true,
    controllers: [...(definition.controllers ?? []), Pages],
    providers: [...(definition.providers ?? []), { provide: MCP_ADMIN_PATH, useValue: path }],
  };
}
