import type { McpAuthIssuer, McpAuthOptions, ResolvedMcpAuthOptions } from './mcp-auth.options.js';

const DEFAULT_MAX_TOKEN_AGE_MS = 24 * 3_600_000;
/** An OAuth scope token (RFC 6749 §3.3): printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function fail(message: string): never {
  throw new Error(`McpAuthModule: ${message}`);
}

function whole(name: string, value: number, min: number, unit: string): number {
  if (!Number.isInteger(value) || value < min) fail(`${name} must be a whole number of ${unit} ≥ ${min}, got ${value}`);
  return value;
}

function httpUrl(name: string, value: unknown, fix: string): URL {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    fail(`${name} must be an http(s) URL, got ${JSON.stringify(value)}: ${fix}`);
  return url;
}

function scopeList(name: string, value: unknown): string[] {
  if (!Array.isArray(value)) fail(`${name} must be an array of scope names, got ${JSON.stringify(value)}`);
  const bad = value.find((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope));
  if (bad !== undefined)
    fail(`${name} has ${JSON.stringify(bad)}, not an OAuth scope token (RFC 6749 §3.3: no spaces, quotes or backslashes)`);
  return [...new Set(value as string[])];
}

function audiences(name: string, value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.length || list.some((entry) => typeof entry !== 'string' || !entry.trim())) {
    fail(
      `${name} must be a non-empty string or a list of them (a URL, or a path under publicUrl such as "/v1"), got ${JSON.stringify(value)}`,
    );
  }
  return list;
}

function issuerOf(entry: McpAuthIssuer, at: number, seen: Set<string>): ResolvedMcpAuthOptions['issuers'][number] {
  const name = `issuers[${at}]`;
  if (typeof entry?.issuer !== 'string' || !entry.issuer)
    fail(`${name}.issuer must be the issuer identifier its tokens' iss claim carries`);
  if (seen.has(entry.issuer)) fail(`${name}.issuer "${entry.issuer}" is listed twice: list each authorization server once`);
  seen.add(entry.issuer);
  const scopeClaim = entry.scopeClaim ?? 'scope';
  if (typeof scopeClaim !== 'string' || !scopeClaim.trim())
    fail(`${name}.scopeClaim must name a claim (scope, or scp for Okta and Entra ID)`);
  return {
    issuer: entry.issuer,
    jwksUri: httpUrl(`${name}.jwksUri`, entry.jwksUri, "use the issuer's JSON Web Key Set URL (its jwks_uri metadata)"),
    audience: {
      mcp: audiences(`${name}.audience.mcp`, entry.audience?.mcp),
      api: audiences(`${name}.audience.api`, entry.audience?.api),
    },
    scopeClaim: scopeClaim.trim(),
    requireAtJwt: flag(`${name}.requireAtJwt`, entry.requireAtJwt, true),
  };
}

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(`${name} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

/** Each listed server must be an accepted issuer, spelled as its tokens' `iss`. */
function authorizationServersOf(listed: unknown, issuers: string[]): string[] {
  if (listed === undefined) return issuers;
  if (!Array.isArray(listed)) fail(`authorizationServers must be a list of issuer URLs, got ${JSON.stringify(listed)}`);
  listed.forEach((url, at) => {
    httpUrl(`authorizationServers[${at}]`, url, 'list the issuers clients get tokens from (their OAuth metadata is found there)');
    if (issuers.includes(url)) return;
    const near = issuers.find((issuer) => issuer.replace(/\/+$/, '') === String(url).replace(/\/+$/, ''));
    fail(
      `authorizationServers[${at}] "${url}" is not an accepted issuer (${issuers.join(', ') || 'none'}): ` +
        (near
          ? `spell it exactly as its tokens' iss, "${near}"`
          : 'a client sent there would get tokens this server refuses, and a client checks that the metadata it finds there names ' +
            "that same URL as its issuer (RFC 8414), so a proxy path such as /v1 breaks sign-in: list the issuer's own URL, " +
            'or add it to issuers'),
    );
  });
  return [...new Set(listed as string[])];
}

/**
 * The options with every default filled; a wrong value stops the boot with a message naming the
 * option and what to give instead. `verifiers`: how many `tokenVerifiers` the module was given (with
 * none and no issuer, no token could ever be accepted).
 */
export function resolveMcpAuthOptions(options: McpAuthOptions, verifiers = 0): ResolvedMcpAuthOptions {
  if (!Array.isArray(options?.issuers))
    fail('issuers must be a list of { issuer, jwksUri } (it may be empty when tokenVerifiers check every token)');
  if (!options.issuers.length && !verifiers) {
    fail('issuers is empty and no tokenVerifiers are given, so no token could ever be accepted: add an issuer or a token verifier');
  }
  let publicUrl: string | undefined;
  if (options.publicUrl !== undefined) {
    const url = httpUrl('publicUrl', options.publicUrl, 'use the base URL clients reach this server at, e.g. https://api.example.com');
    if (url.search || url.hash) fail(`publicUrl "${options.publicUrl}" must not carry a query or a fragment`);
    publicUrl = options.publicUrl.replace(/\/+$/, '');
  }
  const seen = new Set<string>();
  const issuers = options.issuers.map((entry, at) => issuerOf(entry, at, seen));
  const authorizationServers = authorizationServersOf(
    options.authorizationServers,
    issuers.map((entry) => entry.issuer),
  );
  if (options.apiKeyHeader !== undefined && (typeof options.apiKeyHeader !== 'string' || !HEADER_NAME.test(options.apiKeyHeader))) {
    fail(`apiKeyHeader must be an HTTP header name such as X-API-Key, got ${JSON.stringify(options.apiKeyHeader)}`);
  }
  if (options.apiKeyHeader?.toLowerCase() === 'authorization') fail('apiKeyHeader names a second header: Authorization is always read');
  return {
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    issuers,
    authorizationServers,
    challengeScopes: scopeList('challengeScopes', options.challengeScopes ?? []),
    stepUpWindowMs: whole('stepUpWindowMs', options.stepUpWindowMs ?? 600_000, 0, 'milliseconds'),
    ...(options.scopes !== undefined ? { scopes: scopeList('scopes', options.scopes).sort() } : {}),
    maxTokenAgeMs: whole('maxTokenAgeMs', options.maxTokenAgeMs ?? DEFAULT_MAX_TOKEN_AGE_MS, 1, 'milliseconds'),
    clockToleranceSeconds: whole('clockToleranceSeconds', options.clockToleranceSeconds ?? 5, 0, 'seconds'),
    jwksCooldownMs: whole('jwksCooldownMs', options.jwksCooldownMs ?? 30_000, 0, 'milliseconds'),
    jwksCacheMaxAgeMs: whole('jwksCacheMaxAgeMs', options.jwksCacheMaxAgeMs ?? 600_000, 1, 'milliseconds'),
    ...(options.apiKeyHeader !== undefined ? { apiKeyHeader: options.apiKeyHeader } : {}),
    ...(options.resourceName !== undefined ? { resourceName: options.resourceName } : {}),
  };
}
