import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/internal';
import { DiscoveryModule } from '@nestjs/core';
import { McpConfirmationInterceptor } from './confirmation/confirmation.interceptor.js';
import { StreamConfirmation } from './confirmation/stream-confirmation.js';
import { McpApprovalViewSecrets } from './confirmation/approval-view-secrets.js';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpExtensionPointsReport } from './extension-points/mcp-extension-points.report.js';
import { McpIdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { McpTaskInterceptor } from './tasks/task.interceptor.js';
import { MCP_REST_BACKGROUND } from './decorators/rest-background.interceptor.js';
import { MCP_REST_INPUT_SCHEMAS } from './decorators/rest-input-schema.interceptor.js';
import { McpRestInputSchemas } from './rest/rest-input-schemas.js';
import { McpRestBackground } from './rest/rest-background.js';
import { McpTasks } from './tasks/mcp-tasks.service.js';
import { LostTasks } from './tasks/lost-tasks.js';
import { TaskAborts } from './tasks/task-aborts.js';
import { TaskEnds } from './tasks/task-ends.js';
import { TasksHandler } from './tasks/tasks.handler.js';
import { McpTaskWorker } from './server/task-worker.js';
import { McpHandlerFactory } from './discovery/mcp-handler.factory.js';
import { McpRegistry } from './registry/mcp.registry.js';
import { CapabilityAccess } from './access/capability-access.js';
import { McpSkillCatalog } from './skills/skill-catalog.js';
import { SkillsHandler } from './skills/skills.handler.js';
import { McpViews } from './views/mcp-views.js';
import { CompletionHandler } from './handlers/completion.handler.js';
import { LifecycleHandler } from './handlers/lifecycle.handler.js';
import { PromptsHandler } from './handlers/prompts.handler.js';
import { ResourcesHandler } from './handlers/resources.handler.js';
import { ToolsHandler } from './handlers/tools.handler.js';
import { ToolResultRenderer } from './handlers/tool-result.renderer.js';
import { MCP_OPTIONS } from './options/mcp-options.constants.js';
import { MCP_MODULE_OPTIONS, McpConfigurableModule } from './mcp.module-definition.js';
import type { McpModuleOptions, ResolvedMcpOptions } from './options/mcp-options.interface.js';
import { resolveMcpOptions } from './options/mcp-options.resolver.js';
import { InvocationBuilder } from './multi-round/invocation.builder.js';
import { McpRequestState } from './multi-round/request-state.js';
import { McpController } from './server/mcp.controller.js';
import { McpDispatcher } from './server/mcp.dispatcher.js';
import { StatelessClientInfo } from './handlers/stateless-client-info.js';
import { CallCancellations } from './streams/call-cancellations.js';
import { ClientRequests } from './streams/client-requests.js';
import { McpResourceUpdates } from './streams/mcp-resource-updates.js';
import { McpSessions } from './streams/mcp-sessions.js';
import { StandaloneStreams } from './streams/standalone-streams.js';
import { RequestStreamReplay } from './streams/request-stream-replay.js';
import { McpStreamBackends } from './streams/stream-backends.provider.js';
import { StreamLimits } from './streams/stream-limits.js';
import { StreamMethodsHandler } from './streams/stream-methods.handler.js';
import { StreamingEndpoint } from './server/streaming-endpoint.js';
import { McpTransportState } from './transport/mcp-transport.state.js';

/**
 * The MCP layer: `McpModule.forRoot(options)` (or `forRootAsync`) in the root module, then
 * `useMcpTransport(app)` in `main.ts`. Decorated methods anywhere in the application are found
 * at bootstrap. The application's implementations of the extension points (access policy, call
 * hook, stores, approval links) are options too, with their modules in `imports`; each has an
 * in-process default, and the boot log says which fills each.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [McpController],
  providers: [
    {
      provide: MCP_OPTIONS,
      inject: [MCP_MODULE_OPTIONS],
      useFactory: (options: McpModuleOptions): ResolvedMcpOptions => {
        const resolved = resolveMcpOptions(options);
        // Routes are registered during init, after providers exist: the path can still be set here.
        Reflect.defineMetadata(PATH_METADATA, resolved.path, McpController);
        return resolved;
      },
    },
    McpRegistry,
    McpHandlerFactory,
    McpExplorer,
    CapabilityAccess,
    // Skills (docs/skills.md): @McpSkill folders, read at bootstrap, served through the skills extension.
    McpSkillCatalog,
    SkillsHandler,
    // App views (docs/app-views.md): declared by tools and the `views` option, served as ui:// resources.
    McpViews,
    LifecycleHandler,
    ToolsHandler,
    ToolResultRenderer,
    ResourcesHandler,
    PromptsHandler,
    CompletionHandler,
    McpDispatcher,
    StatelessClientInfo,
    McpTransportState,
    McpRequestState,
    InvocationBuilder,
    // Idempotency keys (claimed after the guards) and the confirmation of destructive tools (docs/contract.md §3.5, §4),
    // whatever module declares the tool. Not APP_INTERCEPTORs: McpHandlerFactory puts them first in
    // the interceptor chain of the tools they apply to only, so other tools, REST routes and the
    // endpoint's own route do not pay for an interceptor chain (RxJS) that would pass through.
    McpIdempotencyInterceptor,
    McpConfirmationInterceptor,
    // The confirmation view's per-approval secrets (docs/confirmation-and-idempotency.md), checked by the view's decide tool.
    McpApprovalViewSecrets,
    // Tasks (tools declared with `task`, docs/tasks.md): the task boundary, `tasks/*`, the worker.
    McpTaskInterceptor,
    McpTasks,
    TaskAborts,
    LostTasks,
    TaskEnds,
    TasksHandler,
    McpTaskWorker,
    // The REST half of `task: 'background'` routes (202 + the job), found by McpRestBackgroundInterceptor in any module.
    McpRestBackground,
    { provide: MCP_REST_BACKGROUND, useExisting: McpRestBackground },
    // The REST half of tools with an `inputSchema` (the schema holds their REST requests), found by McpRestInputSchemaInterceptor.
    McpRestInputSchemas,
    { provide: MCP_REST_INPUT_SCHEMAS, useExisting: McpRestInputSchemas },
    // Stream mode (`streams` option); idle when it is off.
    McpStreamBackends,
    McpSessions,
    ClientRequests,
    CallCancellations,
    StreamLimits,
    StreamConfirmation,
    StandaloneStreams,
    RequestStreamReplay,
    StreamMethodsHandler,
    StreamingEndpoint,
    McpResourceUpdates,
    McpExtensionPointsReport,
  ],
  exports: [MCP_OPTIONS, McpRegistry, McpRequestState, McpDispatcher, McpResourceUpdates, McpTasks, McpApprovalViewSecrets],
})
export class McpModule extends McpConfigurableModule implements OnApplicationBootstrap {
  constructor(
    @Inject(McpTransportState) private readonly transport: McpTransportState,
    @Inject(McpExtensionPointsReport) private readonly extensionPoints: McpExtensionPointsReport,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.extensionPoints.check();
    if (!this.transport.mounted) {
      throw new Error('McpModule: call useMcpTransport(app) after NestFactory.create() and before app.listen()');
    }
  }
}
