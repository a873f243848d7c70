var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PanelAuthService, sameSecret } from './panel-auth.service.js';
import { SESSION_COOKIE, cookie, formField, setPanelSession } from './panel-http.js';
const PANEL_ANONYMOUS = 'panel:anonymous';
/** A panel route open without a session (sign-in). */
export const PanelAnonymous = () => SetMetadata(PANEL_ANONYMOUS, true);
/** No live session: sign in first. */
export class PanelSignInRequired extends Error {
}
/** A state-changing request without the session's CSRF token. */
export class PanelCsrfRejected extends Error {
}
/**
 * The panel's own authentication (its routes are `@Public()` for the bearer-token guards): a
 * session cookie, and on every non-GET request the session's CSRF token in the form's `_csrf`
 * field, compared in constant time.
 */
let PanelSessionGuard = class PanelSessionGuard {
    reflector;
    auth;
    constructor(reflector, auth) {
        this.reflector = reflector;
        this.auth = auth;
    }
    async canActivate(context) {
        if (this.reflector.getAllAndOverride(PANEL_ANONYMOUS, [context.getHandler(), context.getClass()]))
            return true;
        const req = context.switchToHttp().getRequest();
        const session = await this.auth.session(cookie(req, SESSION_COOKIE));
        if (!session)
            throw new PanelSignInRequired();
        setPanelSession(req, session);
        if (req.method !== 'GET' && req.method !== 'HEAD' && !sameSecret(formField(req, '_csrf'), session.csrfToken)) {
            throw new PanelCsrfRejected();
        }
        return true;
    }
};
PanelSessionGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector,
        PanelAuthService])
], PanelSessionGuard);
export { PanelSessionGuard };
//# sourceMappingURL=panel-session.guard.js.map