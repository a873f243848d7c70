import { Module } from '@nestjs/common';
import { McpAdminModule } from '@nest-mcp/admin';
import { PublicRoute } from '@nest-mcp/auth';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { PanelAccess } from './panel-access.js';
import { PanelAuthService } from './panel-auth.service.js';
import { PanelLoginController } from './panel-login.controller.js';

/** The panel's sign-in (password, sessions, throttle) and this app's side of the admin pages (panel-access.ts). */
@Module({
  imports: [RateLimitModule],
  providers: [PanelAuthService, PanelAccess],
  exports: [PanelAuthService, PanelAccess],
})
export class PanelSignInModule {}

/**
 * The admin pages under /admin: approvals and tasks from @nest-mcp/admin (server-rendered HTML,
 * CSRF, headers), signed in with this app's password form and cookie sessions. The sign-in
 * controller comes first, so its routes are matched before the pages' catch-all 404.
 */
@Module({
  imports: [
    PanelSignInModule,
    McpAdminModule.forRootAsync({
      path: '/admin',
      // The bearer-token guards let the pages through: they check the panel session themselves.
      pageDecorators: [PublicRoute()],
      imports: [PanelSignInModule],
      inject: [PanelAccess],
      useFactory: (access: PanelAccess) => access.options(),
    }),
  ],
  controllers: [PanelLoginController],
  exports: [PanelSignInModule],
})
export class PanelModule {}
