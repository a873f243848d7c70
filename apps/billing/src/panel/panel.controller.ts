import { All, Controller, Get, Inject, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApprovalService } from '../approvals/approval.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity/identity.config.js';
import { Public } from '../identity/public.decorator.js';
import { ApprovalReferences } from './approval-references.js';
import { PANEL_SESSION_TTL_MS, PanelAuthService, randomSecret, sameSecret, type PanelSession } from './panel-auth.service.js';
import { PanelExceptionFilter } from './panel-exception.filter.js';
import {
  LOGIN_COOKIE,
  SESSION_COOKIE,
  clearCookie,
  clientAddress,
  cookie,
  formField,
  panelSessionOf,
  safeReturnPath,
  sendPage,
  setCookie,
} from './panel-http.js';
import { PanelAnonymous, PanelSessionGuard } from './panel-session.guard.js';
import { PanelTasks } from './panel-tasks.service.js';
import type { Viewer } from './views/layout.js';
import { approvalDetailPage, approvalsListPage, loginPage, messagePage, outcomePage } from './views/pages.js';
import { tasksListPage } from './views/tasks.view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOGIN_FORM_TTL_MS = 3_600_000;
const NOT_FOUND_MESSAGE =
  'There is no approval with this link that you can decide. It may belong to a workspace where you are not an approver, or the link may be mistyped.';

/**
 * The admin pages (server-rendered HTML): sign-in, the pending approvals of the signed-in
 * person's workspaces, and one approval with Continue / Cancel; the running and recent tasks of
 * the workspaces where they are an admin, with Cancel. `@Public()` for the bearer-token guards:
 * these pages authenticate with their own session cookie (PanelSessionGuard).
 */
@Controller('admin')
@Public()
@UseGuards(PanelSessionGuard)
@UseFilters(PanelExceptionFilter)
export class PanelController {
  constructor(
    private readonly auth: PanelAuthService,
    private readonly approvals: ApprovalService,
    private readonly references: ApprovalReferences,
    private readonly tasks: PanelTasks,
    @Inject(IDENTITY_CONFIG) private readonly identity: IdentityConfig,
  ) {}

  @Get()
  home(@Res() res: Response): void {
    res.redirect(303, '/admin/approvals');
  }

  @Get('login')
  @PanelAnonymous()
  async loginForm(@Req() req: Request, @Res() res: Response): Promise<void> {
    const next = safeReturnPath(req.query.next);
    if (await this.auth.session(cookie(req, SESSION_COOKIE))) {
      res.redirect(303, next);
      return;
    }
    this.showLogin(req, res, 200, { next });
  }

  @Post('login')
  @PanelAnonymous()
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

  @Post('logout')
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.auth.logout(this.session(req).id);
    clearCookie(req, res, SESSION_COOKIE, this.identity.configuredPublicUrl);
    res.set('Cache-Control', 'no-store').redirect(303, '/admin/login');
  }

  @Get('approvals')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.session(req);
    sendPage(res, 200, approvalsListPage(viewerOf(session), await this.approvals.listPending(session.userId)));
  }

  @Get('approvals/:id')
  async detail(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.session(req);
    const viewer = viewerOf(session);
    const approval = UUID.test(id) ? await this.approvals.find(id.toLowerCase(), session.userId) : undefined;
    if (!approval) {
      sendPage(res, 404, messagePage('Approval not found', NOT_FOUND_MESSAGE, viewer));
      return;
    }
    if (approval.status === 'expired') {
      sendPage(res, 410, outcomePage(viewer, 'expired', approval));
      return;
    }
    sendPage(res, 200, approvalDetailPage(viewer, approval, await this.references.of(approval)));
  }

  @Post('approvals/:id/decision')
  async decide(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.session(req);
    const viewer = viewerOf(session);
    const decision = formField(req, 'decision');
    if (decision !== 'continue' && decision !== 'cancel') {
      sendPage(
        res,
        400,
        messagePage('Choose Continue or Cancel', 'The form did not say what to do. Nothing was done.', viewer, {
          href: `/admin/approvals/${encodeURIComponent(id)}`,
          label: '← Back to the approval',
        }),
      );
      return;
    }
    const outcome = UUID.test(id)
      ? await this.approvals.decide(id.toLowerCase(), session.userId, decision, req)
      : ({ kind: 'not_found' } as const);
    switch (outcome.kind) {
      case 'not_found':
        sendPage(res, 404, messagePage('Approval not found', NOT_FOUND_MESSAGE, viewer));
        return;
      case 'already_decided':
        sendPage(res, 409, outcomePage(viewer, 'already_decided', outcome.approval));
        return;
      case 'expired':
        sendPage(res, 410, outcomePage(viewer, 'expired', outcome.approval));
        return;
      default:
        sendPage(res, 200, outcomePage(viewer, outcome.kind, outcome.approval));
    }
  }

  @Get('tasks')
  async taskList(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.session(req);
    sendPage(res, 200, tasksListPage(viewerOf(session), await this.tasks.list(session.userId)));
  }

  /** Cancel, then the list with what happened (a page of its own, not a redirect: the outcome is shown once). */
  @Post('tasks/:id/cancel')
  async cancelTask(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.session(req);
    const viewer = viewerOf(session);
    const outcome = await this.tasks.cancel(id, session.userId);
    if (outcome.kind === 'not_found') {
      sendPage(
        res,
        404,
        messagePage(
          'Task not found',
          'There is no task with this id that you can cancel. It may belong to a workspace where you are not an admin, or it expired.',
          viewer,
          { href: '/admin/tasks', label: '← All tasks' },
        ),
      );
      return;
    }
    sendPage(res, outcome.kind === 'cancelled' ? 200 : 409, tasksListPage(viewer, await this.tasks.list(session.userId), outcome));
  }

  /** Anything else under /admin: a 404 page (after sign-in, so it tells nothing to strangers). */
  @All('*rest')
  notFound(@Req() req: Request, @Res() res: Response): void {
    sendPage(res, 404, messagePage('Not found', 'There is no such page here.', viewerOf(this.session(req))));
  }

  private session(req: Request): PanelSession {
    const session = panelSessionOf(req);
    if (!session) throw new Error('PanelSessionGuard did not run');
    return session;
  }

  private showLogin(req: Request, res: Response, status: number, options: { next: string; email?: string; error?: string }): void {
    // A fresh double-submit secret for every form shown (HttpOnly, SameSite=Strict, /admin only).
    const loginCsrf = randomSecret();
    setCookie(req, res, LOGIN_COOKIE, loginCsrf, LOGIN_FORM_TTL_MS, this.identity.configuredPublicUrl);
    sendPage(
      res,
      status,
      loginPage({
        loginCsrf,
        next: options.next === '/admin/approvals' ? undefined : options.next,
        email: options.email,
        error: options.error,
      }),
    );
  }
}

function viewerOf(session: PanelSession): Viewer {
  return { email: session.email, name: session.name, csrfToken: session.csrfToken };
}
