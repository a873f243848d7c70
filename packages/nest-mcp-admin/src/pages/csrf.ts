import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { cookie, formField, issuedCsrfOf, setIssuedCsrf } from './admin-http.js';

/** The double-submit cookie: HttpOnly, SameSite=Strict, scoped to the pages' path. */
export const CSRF_COOKIE = 'mcp_admin_csrf';
/** The form field every POST carries. */
export const CSRF_FIELD = '_csrf';
const CSRF_TTL_MS = 12 * 3_600_000;

/** Constant-time equality of two strings (false when either is missing or empty). */
export function sameSecret(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || !a || !b) return false;
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

/**
 * Whether a state-changing request may proceed: its `_csrf` field equals the CSRF cookie (compared
 * in constant time), and its `Origin` header, when it names an origin, is the public one. (The
 * pages answer with `Referrer-Policy: no-referrer`, under which browsers send `Origin: null` on
 * their own forms: `null` names none, and the token and the SameSite=Strict cookie still decide.)
 * A pure function of the request, for the guard and for an application's own forms under the path.
 */
export function csrfAccepted(req: Pick<Request, 'headers' | 'body'>, publicOrigin: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== publicOrigin) return false;
  return sameSecret(formField(req as Request, CSRF_FIELD), cookie(req as Request, CSRF_COOKIE));
}

/**
 * CSRF protection of the pages, independent of the sign-in: every POST carries a token (`_csrf`)
 * that must match a `SameSite=Strict`, HttpOnly cookie the pages set (double submit), and its
 * `Origin`, when the browser sends one, must be the public URL's. An application's own forms under
 * the pages' path (its sign-out) use the same: `token(req, res)` for the form, `accepts(req)` on POST.
 */
@Injectable()
export class McpAdminCsrf {
  constructor(@Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions) {}

  /** The token for the forms of the page being answered: the cookie's, or a new one set now. */
  token(req: Request, res: Response): string {
    const issued = issuedCsrfOf(req);
    if (issued) return issued;
    const current = cookie(req, CSRF_COOKIE);
    const token = current && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomBytes(32).toString('base64url');
    if (token !== current) {
      res.cookie(CSRF_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: req.secure || this.options.publicUrl().startsWith('https:'),
        path: this.options.path,
        maxAge: CSRF_TTL_MS,
      });
    }
    setIssuedCsrf(req, token);
    return token;
  }

  /** A POST may proceed (see `csrfAccepted`). */
  accepts(req: Request): boolean {
    return csrfAccepted(req, new URL(this.options.publicUrl()).origin);
  }
}
