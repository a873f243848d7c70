import { randomUUID } from 'node:crypto';
import { Catch, HttpException, Inject, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { sendPage } from './admin-http.js';
import { AdminCsrfRejected, AdminSignInRequired } from './admin-page.guard.js';
import { McpAdminPages } from './mcp-admin-pages.js';
import { bouncePage } from './views/bounce.view.js';
import { messagePage } from './views/pages.js';

/** Every error of a page becomes a page (never JSON, never a stack trace). */
@Catch()
export class AdminExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpAdmin');

  constructor(
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
    private readonly frames: McpAdminPages,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const frame = this.frames.of(req);

    if (exception instanceof AdminSignInRequired) {
      // A page of this mount: the path as Express matched it, case and all (a decision goes back to its approval).
      const next = req.method === 'GET' ? req.path : req.path.replace(/\/decision$/, '');
      // A link followed from another site (a chat app): the browser withholds SameSite=Strict
      // cookies on that navigation. Re-navigate from our own origin once, so a signed-in person
      // is not asked to sign in again; without a session that second request lands on sign-in.
      if (req.method === 'GET' && req.headers['sec-fetch-site'] === 'cross-site') {
        sendPage(res, 200, bouncePage(next, this.options.title));
        return;
      }
      res.set('Cache-Control', 'no-store').redirect(303, this.options.identity.signInUrl(next));
      return;
    }
    if (exception instanceof AdminCsrfRejected) {
      sendPage(
        res,
        403,
        messagePage(
          frame,
          'Request refused',
          'This form did not carry a valid security token (it may be old, or it came from another site). Nothing was done. Go back, reload the page and try again.',
        ),
      );
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        sendPage(res, 404, messagePage(frame, 'Not found', 'There is no such page here.'));
        return;
      }
      if (status < 500) {
        sendPage(res, status, messagePage(frame, 'Request refused', 'The request could not be processed. Nothing was done.'));
        return;
      }
    }
    const reference = randomUUID();
    this.logger.error(
      `Admin page error ${reference} on ${req.method} ${req.path}: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
    );
    sendPage(res, 500, messagePage(frame, 'Something went wrong', `Nothing more is known on this page. Reference: ${reference}.`));
  }
}
