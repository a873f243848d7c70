import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { PanelAuthService, sameSecret } from './panel-auth.service.js';
import { SESSION_COOKIE, cookie, formField, setPanelSession } from './panel-http.js';

const PANEL_ANONYMOUS = 'panel:anonymous';

/** A panel route open without a session (sign-in). */
export const PanelAnonymous = () => SetMetadata(PANEL_ANONYMOUS, true);

/** No live session: sign in first. */
export class PanelSignInRequired extends Error {}

/** A state-changing request without the session's CSRF token. */
export class PanelCsrfRejected extends Error {}

/**
 * The panel's own authentication (its routes are `@Public()` for the bearer-token guards): a
 * session cookie, and on every non-GET request the session's CSRF token in the form's `_csrf`
 * field, compared in constant time.
 */
@Injectable()
export class PanelSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: PanelAuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PANEL_ANONYMOUS, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const session = await this.auth.session(cookie(req, SESSION_COOKIE));
    if (!session) throw new PanelSignInRequired();
    setPanelSession(req, session);
    if (req.method !== 'GET' && req.method !== 'HEAD' && !sameSecret(formField(req, '_csrf'), session.csrfToken)) {
      throw new PanelCsrfRejected();
    }
    return true;
  }
}
