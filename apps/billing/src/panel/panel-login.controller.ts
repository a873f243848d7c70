import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { McpAdminCsrf, McpAdminPages } from '@nest-mcp/admin';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity/identity.config.js';
import { PublicRoute } from '@nest-mcp/auth';
import { PANEL_SESSION_TTL_MS, PanelAuthService, randomSecret, sameSecret } from './panel-auth.service.js';
import { LOGIN_COOKIE, SESSION_COOKIE, clearCookie, clientAddress, cookie, formField, safeReturnPath, setCookie } from './panel-http.js';
import { loginForm } from './login.view.js';

const LOGIN_FORM_TTL_MS = 3_600_000;

/**
 * The admin pages' sign-in (this app's `identity` for @nest-mcp/admin, panel-access.ts): the
 * password form and sign-out under /admin, with the pages' layout and headers. `@PublicRoute()` for the
 * bearer-token guards: the pages authenticate with the panel's own session cookie.
 */
@Controller('admin')
@PublicRoute()
export class PanelLoginController {
  constructor(
    private readonly auth: PanelAuthService,
    private readonly pages: McpAdminPages,
    private readonly csrf: McpAdminCsrf,
    @Inject(IDENTITY_CONFIG) private readonly identity: IdentityConfig,
  ) {}

  @Get('login')
  async loginForm(@Req() req: Request, @Res() res: Response): Promise<void> {
    const next = safeReturnPath(req.query.next);
    if (await this.auth.session(cookie(req, SESSION_COOKIE))) {
      res.redirect(303, next);
      return;
    }
    this.showLogin(req, res, 200, { next });
  }

  @Post('login')
  async login(@Req() req: Request, @Res() res: Response): Promise<void> {
    const next = safeReturnPath(formField(req, 'next'));
    const email = formField(req, 'email') ?? '';
    if (!sameSecret(formField(req, '_csrf'), cookie(req, LOGIN_COOKIE))) {
      this.showLogin(req, res, 403, { next, email, error: 'The sign-in form expired or did not come from this site. Please try again.' });
      return;
    }
    const result = await this.auth.login(email, formField(req, 'password') ?? '', clientAddress(req));
    if (!result.ok) {
      const error =
        result.reason === 'throttled'
          ? `Too many failed sign-ins. Try again in ${Math.ceil((result.retryAfterMs ?? 60_000) / 60_000)} minutes.`
          : 'Wrong email or password.';
      if (result.reason === 'throttled') res.set('Retry-After', String(Math.ceil((result.retryAfterMs ?? 60_000) / 1000)));
      this.showLogin(req, res, result.reason === 'throttled' ? 429 : 401, { next, email, error });
      return;
    }
    clearCookie(req, res, LOGIN_COOKIE, this.identity.configuredPublicUrl);
    setCookie(req, res, SESSION_COOKIE, result.secret, PANEL_SESSION_TTL_MS, this.identity.configuredPublicUrl);
    res.set('Cache-Control', 'no-store').redirect(303, next);
  }

  /** Sign-out: the form in the pages' header, with their CSRF token (`McpAdminCsrf`). */
  @Post('logout')
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = await this.auth.session(cookie(req, SESSION_COOKIE));
    if (!session) {
      res.set('Cache-Control', 'no-store').redirect(303, '/admin/login');
      return;
    }
    if (!this.csrf.accepts(req)) {
      this.pages.sendMessage(
        res,
        403,
        'Request refused',
        'This form did not carry a valid security token (it may be old, or it came from another site). Nothing was done. Go back, reload the page and try again.',
      );
      return;
    }
    await this.auth.logout(session.id);
    clearCookie(req, res, SESSION_COOKIE, this.identity.configuredPublicUrl);
    res.set('Cache-Control', 'no-store').redirect(303, '/admin/login');
  }

  private showLogin(req: Request, res: Response, status: number, options: { next: string; email?: string; error?: string }): void {
    // A fresh double-submit secret for every form shown (HttpOnly, SameSite=Strict, /admin only).
    const loginCsrf = randomSecret();
    setCookie(req, res, LOGIN_COOKIE, loginCsrf, LOGIN_FORM_TTL_MS, this.identity.configuredPublicUrl);
    this.pages.send(
      res,
      status,
      'Sign in',
      loginForm({
        loginCsrf,
        next: options.next === '/admin/approvals' ? undefined : options.next,
        email: options.email,
        error: options.error,
      }),
    );
  }
}
