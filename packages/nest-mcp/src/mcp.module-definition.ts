import { ConfigurableModuleBuilder } from '@nestjs/common';
import { extensionPointProviders, givenExtensionPoints, MCP_EXTENSION_POINT_NAMES } from './extension-points/mcp-extension-points.js';
import { MCP_GIVEN_EXTENSION_POINTS } from './extension-points/mcp-extension-points.report.js';
import type { McpExtensionOptions } from './extension-points/mcp-extension.types.js';
import type { McpModuleOptions } from './options/mcp-options.interface.js';

/**
 * Options that shape the module itself (which providers fill the extension points, what it
 * imports, whether it is global): read when `forRoot()` / `forRootAsync()` is called, since Nest
 * needs providers before any factory runs. They sit beside the other options in both calls.
 */
interface McpModuleExtras extends McpExtensionOptions {
  /**
   * Global by default: the host application's guards and controllers read the options and the
   * registry (e.g. to publish scopes) without importing the configured module again.
   */
  isGlobal?: boolean;
}

const EXTRAS: McpModuleExtras = {
  isGlobal: true,
  imports: [],
  // Every extension point is listed (undefined) so that it is taken out of the options the layer reads.
  ...Object.fromEntries(MCP_EXTENSION_POINT_NAMES.map((name) => [name, undefined])),
};

export const {
  ConfigurableModuleClass: McpConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras<McpModuleExtras>(EXTRAS, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    // forRootAsync() already put its `imports` in the definition; forRoot() passes them as an extra.
    imports: [...(definition.imports ?? []), ...(extras.imports ?? [])],
    providers: [
      ...(definition.providers ?? []),
      ...extensionPointProviders(extras),
      { provide: MCP_GIVEN_EXTENSION_POINTS, useValue: givenExtensionPoints(extras) },
    ],
  }))
  .build();
