import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { sendPage, visitOf } from './admin-http.js';
import type { HtmlValue } from './views/html.js';
import { layout, type PageFrame, type Viewer } from './views/layout.js';
import { messagePage } from './views/pages.js';

/**
 * The frame of a page (the path, the name, who is signed in) for a request, and pages in that
 * frame for an application's own routes under the pages' path (its sign-in form, its sign-out).
 */
@Injectable()
export class McpAdminPages {
  constructor(@Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions) {}

  /** The frame of a request: with its viewer once the guard found the person. */
  of(req: Request): PageFrame {
    const visit = visitOf(req);
    const viewer: Viewer | undefined = visit && {
      name: visit.person.name,
      ...(visit.person.email ? { email: visit.person.email } : {}),
      csrfToken: visit.csrfToken,
      ...(this.options.identity.signOutPath ? { signOutPath: this.options.identity.signOutPath } : {}),
    };
    return { base: this.options.path, title: this.options.title, ...(viewer ? { viewer } : {}) };
  }

  /** Sends a page of the application's own, in the pages' layout (their style, headers and header bar, nobody signed in). */
  send(res: Response, status: number, title: string, body: HtmlValue): void {
    sendPage(res, status, layout({ base: this.options.path, title: this.options.title }, title, body));
  }

  /** Sends a page with one message, in the pages' layout. */
  sendMessage(res: Response, status: number, title: string, message: string): void {
    sendPage(res, status, messagePage({ base: this.options.path, title: this.options.title }, title, message));
  }
}
