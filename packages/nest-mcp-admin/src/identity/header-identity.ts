import type { Request } from 'express';
import type { McpAdminIdentity, McpAdminPerson } from '../options/mcp-admin.options.js';

/** `headerIdentity(…)`: the headers an SSO proxy sets on every request it lets through. */
export interface HeaderIdentityOptions {
  /** The person's id (e.g. `x-auth-request-user`). Required: without it, nobody is signed in. */
  idHeader: string;
  /** Their display name (default: the id). */
  nameHeader?: string;
  /** Their email. */
  emailHeader?: string;
  /** Where the proxy signs a person in (default: the page itself: the proxy intercepts it). */
  signInUrl?: (returnTo: string) => string;
  /** A path under the pages' path that signs out (a POST with the page's `_csrf`), if the proxy has one. */
  signOutPath?: string;
}

const MAX_HEADER = 320;

function header(req: Request, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = req.headers[name.toLowerCase()];
  const one = Array.isArray(value) ? undefined : value?.trim();
  return one && one.length <= MAX_HEADER && !/[\u0000-\u001f\u007f]/.test(one) ? one : undefined;
}

/**
 * The person as an authenticating proxy in front of the application names them (oauth2-proxy,
 * an identity-aware proxy, a corporate SSO gateway), in request headers. The proxy MUST remove
 * these headers from every client request before it sets its own, and the application must be
 * reachable only through it: anyone who can send a request straight to the application, or
 * through a proxy that passes the headers on, can name themselves anyone.
 */
export function headerIdentity(options: HeaderIdentityOptions): McpAdminIdentity {
  if (!options.idHeader) throw new Error('headerIdentity: idHeader is required (the header with the person id)');
  for (const [option, name] of Object.entries({
    idHeader: options.idHeader,
    nameHeader: options.nameHeader,
    emailHeader: options.emailHeader,
  })) {
    if (name !== undefined && (typeof name !== 'string' || !/^[A-Za-z0-9-]+$/.test(name)))
      throw new Error(`headerIdentity: ${option} must be a header name, got ${JSON.stringify(name)}`);
  }
  return {
    async person(req: Request): Promise<McpAdminPerson | undefined> {
      const id = header(req, options.idHeader);
      if (!id) return undefined;
      const email = header(req, options.emailHeader);
      return { id, name: header(req, options.nameHeader) ?? id, ...(email ? { email } : {}) };
    },
    signInUrl: options.signInUrl ?? ((returnTo) => returnTo),
    ...(options.signOutPath ? { signOutPath: options.signOutPath } : {}),
  };
}
