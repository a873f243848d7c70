var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ApprovalReferences } from './approval-references.js';
import { PanelAuthService } from './panel-auth.service.js';
import { PanelController } from './panel.controller.js';
import { PanelSessionGuard } from './panel-session.guard.js';
import { PANEL_HEADERS } from './views/layout.js';
/** The admin pages under /admin: sign-in and approvals (server-rendered HTML, cookie sessions). */
let PanelModule = class PanelModule {
    configure(consumer) {
        // Security headers on every /admin answer, redirects and errors included.
        consumer
            .apply((_req, res, next) => {
            res.set(PANEL_HEADERS);
            next();
        })
            .forRoutes('admin', 'admin/{*path}');
    }
};
PanelModule = __decorate([
    Module({
        imports: [RateLimitModule],
        controllers: [PanelController],
        providers: [PanelAuthService, PanelSessionGuard, ApprovalReferences],
        exports: [PanelAuthService],
    })
], PanelModule);
export { PanelModule };
//# sourceMappingURL=panel.module.js.map