import type { Request, Response } from 'express';

/** The panel's own sign-in cookies (its sessions; the pages' CSRF cookie is @nest-mcp/admin's). */
export const SESSION_COOKIE = 'panel_session';
/** The sign-in form's CSRF secret (double-submit: cookie and hidden field must match). */
export const LOGIN_COOKIE = 'panel_login';
const COOKIE_PATH = '/admin';

/** Cookies of the request (no cookie-parser needed for two names). */
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

/** Secure cookies when the panel is served over https (directly, or as PUBLIC_URL, `publicUrl`, says). */
function secure(req: Request, publicUrl: string | undefined): boolean {
  return req.secure || (publicUrl ?? '').startsWith('https:');
}

export function setCookie(req: Request, res: Response, name: string, value: string, maxAgeMs: number, publicUrl: string | undefined): void {
  res.cookie(name, value, { httpOnly: true, sameSite: 'strict', secure: secure(req, publicUrl), path: COOKIE_PATH, maxAge: maxAgeMs });
}

export function clearCookie(req: Request, res: Response, name: string, publicUrl: string | undefined): void {
  res.clearCookie(name, { httpOnly: true, sameSite: 'strict', secure: secure(req, publicUrl), path: COOKIE_PATH });
}

/** A string field of an `application/x-www-form-urlencoded` body (anything else: undefined). */
export function formField(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' ? body[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

const RETURN_PATH = /^\/admin(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;

/**
 * Where to go after sign-in: a same-origin panel path only (`/admin/...`, no scheme, no host, no
 * `//`, no `..`, no query); anything else falls back to the approvals list.
 */
export function safeReturnPath(next: unknown): string {
  const fallback = '/admin/approvals';
  if (typeof next !== 'string' || next.length > 200 || !RETURN_PATH.test(next)) return fallback;
  if (/^\/admin\/log(?:in|out)\/?$/.test(next)) return fallback;
  return next;
}

export function clientAddress(req: Request): string {
  return req.socket.remoteAddress ?? 'unknown';
}
