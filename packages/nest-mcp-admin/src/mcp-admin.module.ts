import { Inject, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { ApprovalReferences } from './approvals/approval-references.js';
import { ApprovalDecideTool } from './approvals/app-view/approval-decide.tool.js';
import { McpAdminApprovalLinks } from './approvals/mcp-admin-approval-links.js';
import { McpApprovals } from './approvals/mcp-approvals.js';
import { MCP_ADMIN_MODULE_OPTIONS, McpAdminConfigurableModule } from './mcp-admin.module-definition.js';
import { MCP_ADMIN_OPTIONS, MCP_ADMIN_PATH, type McpAdminOptions } from './options/mcp-admin.options.js';
import { resolveMcpAdminOptions } from './options/resolve-options.js';
import { AdminExceptionFilter } from './pages/admin-exception.filter.js';
import { AdminPageGuard } from './pages/admin-page.guard.js';
import { McpAdminCsrf } from './pages/csrf.js';
import { McpAdminPages } from './pages/mcp-admin-pages.js';
import { ADMIN_HEADERS } from './pages/views/layout.js';
import { AdminTasks } from './tasks/admin-tasks.js';

/**
 * The admin pages of `@nest-mcp/core`: `McpAdminModule.forRoot({ publicUrl, identity, directory,
 * requester, actAs })` (or `forRootAsync`) once, then `McpModule.forRoot({ ...mcpAdminExtensions(), … })`
 * puts its approval links behind the layer's `approvalLinks`. Needs `McpPrismaModule` (the
 * `mcp_approvals` table, transactions, the audit log, the task store).
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    {
      provide: MCP_ADMIN_OPTIONS,
      useFactory: (options: McpAdminOptions, path: string) => resolveMcpAdminOptions(options, path),
      inject: [MCP_ADMIN_MODULE_OPTIONS, MCP_ADMIN_PATH],
    },
    McpAdminApprovalLinks,
    McpApprovals,
    // The approval view's Continue / Cancel (mcpAdminViews()): an app-only tool.
    ApprovalDecideTool,
    ApprovalReferences,
    AdminTasks,
    McpAdminCsrf,
    McpAdminPages,
    AdminPageGuard,
    AdminExceptionFilter,
  ],
  exports: [MCP_ADMIN_OPTIONS, McpAdminApprovalLinks, McpApprovals, McpAdminCsrf, McpAdminPages],
})
export class McpAdminModule extends McpAdminConfigurableModule implements NestModule {
  constructor(@Inject(MCP_ADMIN_PATH) private readonly path: string) {
    super();
  }

  configure(consumer: MiddlewareConsumer): void {
    // Security headers on every answer under the path, the application's own routes there, redirects and errors included.
    consumer
      .apply((_req: Request, res: Response, next: NextFunction) => {
        res.set(ADMIN_HEADERS);
        next();
      })
      .forRoutes(this.path, `${this.path}/{*path}`);
  }
}
