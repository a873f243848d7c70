import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { ApprovalsModule } from '../approvals/approvals.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ApprovalReferences } from './approval-references.js';
import { PanelAuthService } from './panel-auth.service.js';
import { PanelController } from './panel.controller.js';
import { PanelSessionGuard } from './panel-session.guard.js';
import { PanelTasks } from './panel-tasks.service.js';
import { PANEL_HEADERS } from './views/layout.js';

/** The admin pages under /admin: sign-in, approvals and tasks (server-rendered HTML, cookie sessions). */
@Module({
  imports: [RateLimitModule, ApprovalsModule, DiscoveryModule],
  controllers: [PanelController],
  providers: [PanelAuthService, PanelSessionGuard, ApprovalReferences, PanelTasks],
  exports: [PanelAuthService],
})
export class PanelModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Security headers on every /admin answer, redirects and errors included.
    consumer
      .apply((_req: Request, res: Response, next: NextFunction) => {
        res.set(PANEL_HEADERS);
        next();
      })
      .forRoutes('admin', 'admin/{*path}');
  }
}
