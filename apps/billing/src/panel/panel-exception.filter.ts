import { randomUUID } from 'node:crypto';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { panelSessionOf, safeReturnPath, sendPage } from './panel-http.js';
import { PanelCsrfRejected, PanelSignInRequired } from './panel-session.guard.js';
import { bouncePage } from './views/bounce.view.js';
import type { Viewer } from './views/layout.js';
import { messagePage } from './views/pages.js';

/** Every error of a panel route becomes a page (never JSON, never a stack trace). */
@Catch()
export class PanelExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Panel');

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const session = panelSessionOf(req);
    const viewer: Viewer | undefined = session && { email: session.email, name: session.name, csrfToken: session.csrfToken };

    if (exception instanceof PanelSignInRequired) {
      const next = safeReturnPath(req.method === 'GET' ? req.path : req.path.replace(/\/decision$/, ''));
      // A link followed from another site (a chat app): the browser withholds SameSite=Strict
      // cookies on that navigation. Re-navigate from our own origin once, so a signed-in person
      // is not asked to sign in again; without a session that second request lands on sign-in.
      if (req.method === 'GET' && req.headers['sec-fetch-site'] === 'cross-site') {
        sendPage(res, 200, bouncePage(next));
        return;
      }
      res.set('Cache-Control', 'no-store').redirect(303, `/admin/login?next=${encodeURIComponent(next)}`);
      return;
    }
    if (exception instanceof PanelCsrfRejected) {
      sendPage(
        res,
        403,
        messagePage(
          'Request refused',
          'This form did not carry a valid security token (it may be old, or it came from another site). Nothing was done. Go back, reload the page and try again.',
          viewer,
        ),
      );
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        sendPage(res, 404, messagePage('Not found', 'There is no such page here.', viewer));
        return;
      }
      if (status < 500) {
        sendPage(res, status, messagePage('Request refused', 'The request could not be processed. Nothing was done.', viewer));
        return;
      }
    }
    const reference = randomUUID();
    this.logger.error(
      `Panel error ${reference} on ${req.method} ${req.path}: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
    );
    sendPage(res, 500, messagePage('Something went wrong', `Nothing more is known on this page. Reference: ${reference}.`, viewer));
  }
}
