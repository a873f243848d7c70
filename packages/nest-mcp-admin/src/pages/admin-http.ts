import type { Request, Response } from 'express';
import type { McpAdminPerson } from '../options/mcp-admin.options.js';
import { ADMIN_HEADERS } from './views/layout.js';

/** A cookie of the request (no cookie-parser needed for one name). */
export function cookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A string field of an `application/x-www-form-urlencoded` body (anything else: undefined). */
export function formField(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' ? body[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export function sendPage(res: Response, status: number, page: string): void {
  res.status(status).set(ADMIN_HEADERS).type('text/html; charset=utf-8').send(page);
}

/** What the guard found about a request: the person and the page's CSRF token. */
export interface AdminVisit {
  person: McpAdminPerson;
  csrfToken: string;
}

type WithVisit = Request & { mcpAdminVisit?: AdminVisit; mcpAdminCsrf?: string };

export function visitOf(req: Request): AdminVisit | undefined {
  return (req as WithVisit).mcpAdminVisit;
}

export function setVisit(req: Request, visit: AdminVisit): void {
  (req as WithVisit).mcpAdminVisit = visit;
}

/** The CSRF token issued to this request (set by `McpAdminCsrf.issue`). */
export function issuedCsrfOf(req: Request): string | undefined {
  return (req as WithVisit).mcpAdminCsrf;
}

export function setIssuedCsrf(req: Request, token: string): void {
  (req as WithVisit).mcpAdminCsrf = token;
}
