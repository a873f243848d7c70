import type { McpAdminOptions, ResolvedMcpAdminOptions } from './mcp-admin.options.js';

const fail = (message: string): never => {
  throw new Error(`McpAdminModule: ${message}`);
};

/** `/admin`, `/ops/admin`: a leading slash, no trailing one, plain path segments. */
export function resolveMountPath(path: unknown): string {
  if (path === undefined) return '/admin';
  if (typeof path !== 'string' || !/^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+\/?$/.test(path))
    return fail(`path must be a path like "/admin" (segments of letters, digits, . _ ~ -), got ${JSON.stringify(path)}`);
  return path.replace(/\/$/, '');
}

const constant = (value: string) => () => value;

/** An absolute http(s) URL without query, fragment or credentials, as text without a trailing slash. */
export function checkedPublicUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return fail(`publicUrl must be an absolute http(s) URL (approval links are built from it), got ${JSON.stringify(value)}`);
  }
  if (typeof value !== 'string' || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    fail(`publicUrl must be an http(s) URL, got ${JSON.stringify(value)}`);
  if (url.search || url.hash || url.username || url.password)
    fail(`publicUrl must be an origin with an optional path (no query, fragment or credentials), got ${JSON.stringify(value)}`);
  return url.href.replace(/\/$/, '');
}

/** The options with every default filled; a wrong value stops the boot, naming the option. */
export function resolveMcpAdminOptions(options: McpAdminOptions, path = '/admin'): ResolvedMcpAdminOptions {
  if (!options || typeof options !== 'object') return fail('options are required ({ publicUrl, identity, directory, requester, actAs })');
  if (typeof options.publicUrl !== 'function') checkedPublicUrl(options.publicUrl);
  const ttl = options.approvalTtlMs ?? 30 * 60_000;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0)
    fail(`approvalTtlMs must be a positive number of milliseconds, got ${ttl}`);
  const channel = options.channel ?? 'admin';
  if (typeof channel !== 'string' || !/^[a-z][a-z0-9_-]{0,31}$/.test(channel))
    fail(`channel must be a short lower-case name like "admin", got ${JSON.stringify(channel)}`);
  const identity = options.identity;
  if (!identity || typeof identity.person !== 'function' || typeof identity.signInUrl !== 'function')
    fail('identity must have person(request) and signInUrl(returnTo) (e.g. headerIdentity({ idHeader: "x-user-id" }))');
  if (identity.signOutPath !== undefined && (typeof identity.signOutPath !== 'string' || !identity.signOutPath.startsWith('/')))
    fail(`identity.signOutPath must be a path, got ${JSON.stringify(identity.signOutPath)}`);
  const directory = options.directory;
  for (const method of ['tenantsWhere', 'people', 'tenants'] as const) {
    if (!directory || typeof directory[method] !== 'function') fail(`directory.${method} must be a function`);
  }
  if (directory.credentials !== undefined && typeof directory.credentials !== 'function')
    fail('directory.credentials must be a function when given');
  if (typeof options.requester !== 'function')
    fail('requester must be a function (invocation) => { tenantId, personId, credentialId } | undefined');
  if (typeof options.actAs !== 'function') fail('actAs must be a function (person, approval, request) => void');
  if (options.callerPerson !== undefined && typeof options.callerPerson !== 'function')
    fail('callerPerson must be a function (invocation) => person id | undefined when given');
  const title = options.title ?? 'Admin';
  if (typeof title !== 'string' || !title.trim()) fail('title must be a non-empty string');
  return {
    publicUrl:
      typeof options.publicUrl === 'function'
        ? () => checkedPublicUrl((options.publicUrl as () => string)())
        : constant(checkedPublicUrl(options.publicUrl)),
    approvalTtlMs: ttl,
    channel,
    identity,
    directory,
    requester: options.requester,
    ...(options.callerPerson ? { callerPerson: options.callerPerson } : {}),
    actAs: options.actAs,
    title,
    missingTenant: options.missingTenant ?? 'needs a tenant to ask for approval in: name the tenant the call acts in and call again.',
    path: resolveMountPath(path),
  };
}
