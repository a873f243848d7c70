import type { McpAuthOptions } from '@nest-mcp/auth';
import { booleanEnv } from '../config/boolean-variable.js';
import { parseDuration } from './duration.js';

/**
 * One authorization server whose JWT access tokens are accepted: from the single-issuer variables
 * (AUTH_JWT_ISSUER, AUTH_JWKS_URL, …) or an entry of AUTH_JWT_ISSUERS (docs/configuration.md).
 */
export interface JwtIssuerSettings {
  /** The `iss` of its tokens, exactly. */
  readonly issuer: string;
  /** Its JSON Web Key Set. */
  readonly jwksUrl: string;
  /** Expected `aud` on the MCP endpoint; default `<PUBLIC_URL>/mcp`. */
  readonly audience?: string;
  /** Expected `aud` on the REST API; default `<PUBLIC_URL>/v1`. */
  readonly apiAudience?: string;
  /** The claim with the granted scopes (`scope`; `scp` for Okta and Entra ID): a space-separated string or an array. */
  readonly scopeClaim: string;
  /** Its tokens must be typed `at+jwt` (RFC 9068; default true; false for Entra ID, Keycloak, Okta). */
  readonly requireAtJwt: boolean;
  /**
   * A subject of this issuer seen for the first time is linked to the existing user whose email its
   * token carries, only with `email_verified: true` and only when that user has no subject at this
   * issuer yet. Off (default): only linked subjects are accepted.
   */
  readonly linkVerifiedEmail: boolean;
  /** A subject nobody linked becomes a new user of its own (no workspace until an admin adds one), never an existing user. */
  readonly provisionUsers: boolean;
}

/** Identity settings from the environment (injected by {@link IDENTITY_SETTINGS}), validated at boot. */
export interface IdentitySettings {
  /** PUBLIC_URL as configured: the server is reachable by that name (and Host is checked against it). */
  readonly configuredPublicUrl?: string;
  /** The authorization servers whose JWTs are accepted, each with its own keys, audiences, scope claim, typ and linking policy. */
  readonly issuers: JwtIssuerSettings[];
  /** AUTH_JWKS_COOLDOWN_MS (default 30 s): the least time between two fetches of a JWKS (an unknown key id refetches it). */
  readonly jwksCooldownMs: number;
  /** AUTH_JWKS_CACHE_MAX_AGE_MS (default 10 min): keys are fetched again after this long, so a key the provider removed stops working. */
  readonly jwksCacheMaxAgeMs: number;
  /** AUTH_JWT_CLOCK_TOLERANCE (seconds, default 5): clock drift allowed on `exp`, `nbf` and `iat`. */
  readonly clockToleranceSeconds: number;
  /** Longest lifetime accepted for a JWT, `exp` minus `iat` (or minus now): AUTH_JWT_MAX_AGE, default 24 h. */
  readonly jwtMaxAgeMs: number;
  /**
   * `authorization_servers` of the protected-resource metadata (AUTH_AUTHORIZATION_SERVERS,
   * comma-separated): accepted issuers only, spelled as their `iss`; default every issuer.
   */
  readonly authorizationServers?: string[];
  /**
   * The scopes named in the 401 challenge of a request without a token (AUTH_CHALLENGE_SCOPE,
   * space-separated; default none: a client then asks for every scope the metadata lists, which a
   * dynamically registered client needs to step up later at a provider that caps it at its
   * registered scope). More is asked for by step-up (403).
   */
  readonly challengeScopes: string[];
}

/** The identity settings of a running server: {@link IdentitySettings} and its public URL. */
export interface IdentityConfig extends IdentitySettings {
  /**
   * Public base URL of this server, no trailing slash: PUBLIC_URL, else the address the server is
   * bound to (known once it listens). Never taken from a request header. Feeds the
   * protected-resource `resource`, the 401 challenge, approval links and the default JWT audience.
   */
  readonly publicUrl: string;
}

/** The token of the validated {@link IdentitySettings}; `IdentityModule` builds {@link IDENTITY_CONFIG} from it. */
export const IDENTITY_SETTINGS = Symbol('IDENTITY_SETTINGS');
/** The token of the running server's {@link IdentityConfig} (provided by `IdentityModule`). */
export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');

export const DEFAULT_JWT_MAX_AGE_MS = 24 * 3_600_000;
const DEFAULT_JWKS_COOLDOWN_MS = 30_000;
const DEFAULT_JWKS_CACHE_MAX_AGE_MS = 600_000;
const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;
/** The fields an AUTH_JWT_ISSUERS entry may have. */
const ISSUER_FIELDS = ['issuer', 'jwksUrl', 'audience', 'apiAudience', 'scopeClaim', 'requireAtJwt', 'linkVerifiedEmail', 'provisionUsers'];

/**
 * The identity variables (PUBLIC_URL, AUTH_*); throws (the boot fails) on settings that would be
 * unsafe, such as JWT mode without a fixed audience.
 */
export function identitySettingsFromEnv(env: NodeJS.ProcessEnv): IdentitySettings {
  const configuredPublicUrl = publicUrlFromEnv(env);
  const issuers = [...singleIssuer(env), ...issuersFromJson(env.AUTH_JWT_ISSUERS)];
  const seen = new Set<string>();
  for (const { issuer, audience } of issuers) {
    if (seen.has(issuer))
      throw new Error(`The JWT issuer ${issuer} is configured twice (AUTH_JWT_ISSUER and AUTH_JWT_ISSUERS): give it once`);
    seen.add(issuer);
    if (!audience && !configuredPublicUrl) {
      throw new Error(
        `JWT authentication (issuer ${issuer}) needs a fixed audience: set PUBLIC_URL to the URL clients use ` +
          '(the audience is then <PUBLIC_URL>/mcp) or its audience (AUTH_JWT_AUDIENCE, or "audience" in AUTH_JWT_ISSUERS). ' +
          'It is never taken from the request.',
      );
    }
  }
  return {
    configuredPublicUrl,
    issuers,
    jwksCooldownMs: wholeNumber(env, 'AUTH_JWKS_COOLDOWN_MS', DEFAULT_JWKS_COOLDOWN_MS, 0, 'milliseconds'),
    jwksCacheMaxAgeMs: wholeNumber(env, 'AUTH_JWKS_CACHE_MAX_AGE_MS', DEFAULT_JWKS_CACHE_MAX_AGE_MS, 1, 'milliseconds'),
    clockToleranceSeconds: wholeNumber(env, 'AUTH_JWT_CLOCK_TOLERANCE', DEFAULT_CLOCK_TOLERANCE_SECONDS, 0, 'seconds'),
    jwtMaxAgeMs: env.AUTH_JWT_MAX_AGE ? parseMaxAge(env.AUTH_JWT_MAX_AGE) : DEFAULT_JWT_MAX_AGE_MS,
    ...(env.AUTH_AUTHORIZATION_SERVERS?.trim()
      ? {
          authorizationServers: env.AUTH_AUTHORIZATION_SERVERS.split(',')
            .map((url) => url.trim())
            .filter(Boolean),
        }
      : {}),
    challengeScopes: (env.AUTH_CHALLENGE_SCOPE ?? '').split(/\s+/).filter(Boolean),
  };
}

/** The issuer of AUTH_JWT_ISSUER + AUTH_JWKS_URL and their companions, if set. */
function singleIssuer(env: NodeJS.ProcessEnv): JwtIssuerSettings[] {
  const issuer = env.AUTH_JWT_ISSUER?.trim();
  const jwksUrl = env.AUTH_JWKS_URL?.trim();
  // Checked even with no issuer: a typo must not wait for the day an issuer is added.
  const requireAtJwt = booleanEnv('AUTH_JWT_REQUIRE_AT_JWT', env.AUTH_JWT_REQUIRE_AT_JWT, true);
  const linkVerifiedEmail = booleanEnv('AUTH_JWT_LINK_VERIFIED_EMAIL', env.AUTH_JWT_LINK_VERIFIED_EMAIL, false);
  const provisionUsers = booleanEnv('AUTH_JWT_PROVISION_USERS', env.AUTH_JWT_PROVISION_USERS, false);
  if (!issuer && !jwksUrl) return [];
  if (!issuer || !jwksUrl) {
    throw new Error(`AUTH_JWT_ISSUER and AUTH_JWKS_URL go together: ${issuer ? 'AUTH_JWKS_URL' : 'AUTH_JWT_ISSUER'} is missing`);
  }
  return [
    {
      issuer,
      jwksUrl,
      audience: env.AUTH_JWT_AUDIENCE?.trim() || undefined,
      apiAudience: env.AUTH_JWT_API_AUDIENCE?.trim() || undefined,
      scopeClaim: env.AUTH_JWT_SCOPE_CLAIM?.trim() || 'scope',
      requireAtJwt,
      linkVerifiedEmail,
      provisionUsers,
    },
  ];
}

/** AUTH_JWT_ISSUERS: a JSON array of issuers, each with the fields of {@link JwtIssuerSettings} (`jwksUrl` for the JWKS). */
function issuersFromJson(text: string | undefined): JwtIssuerSettings[] {
  if (!text?.trim()) return [];
  const fail = (why: string): never => {
    throw new Error(
      `AUTH_JWT_ISSUERS ${why}: give a JSON array such as [{"issuer":"https://idp.example.com","jwksUrl":"https://idp.example.com/jwks",` +
        '"scopeClaim":"scp","requireAtJwt":false,"linkVerifiedEmail":false,"provisionUsers":false}]',
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('is not JSON');
  }
  if (!Array.isArray(parsed)) return fail('is not an array');
  return parsed.map((entry: unknown, at): JwtIssuerSettings => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail(`[${at}] is not an object`);
    const record = entry as Record<string, unknown>;
    const unknown = Object.keys(record).find((key) => !ISSUER_FIELDS.includes(key));
    if (unknown) return fail(`[${at}] has "${unknown}", which is not one of ${ISSUER_FIELDS.join(', ')}`);
    const text = (key: string, required = false): string | undefined => {
      const value = record[key];
      if (value === undefined && !required) return undefined;
      if (typeof value !== 'string' || !value.trim()) return fail(`[${at}].${key} must be a non-empty string`);
      return value.trim();
    };
    const bool = (key: string, fallback: boolean): boolean => {
      const value = record[key] ?? fallback;
      if (typeof value !== 'boolean') return fail(`[${at}].${key} must be true or false`);
      return value;
    };
    return {
      issuer: text('issuer', true)!,
      jwksUrl: text('jwksUrl', true)!,
      audience: text('audience'),
      apiAudience: text('apiAudience'),
      scopeClaim: text('scopeClaim') ?? 'scope',
      requireAtJwt: bool('requireAtJwt', true),
      linkVerifiedEmail: bool('linkVerifiedEmail', false),
      provisionUsers: bool('provisionUsers', false),
    };
  });
}

/**
 * The identity settings of the server being built: `boundUrl` gives the base URL of the bound
 * address, asked only when PUBLIC_URL is unset and only once (the answer is kept).
 */
export function identityConfig(settings: IdentitySettings, boundUrl: () => string = unbound): IdentityConfig {
  let derived: string | undefined;
  return {
    ...settings,
    get publicUrl() {
      return settings.configuredPublicUrl ?? (derived ??= boundUrl());
    },
  };
}

/**
 * `@nest-mcp/auth`'s options from these settings: each JWT issuer with its audiences (its own,
 * else the MCP resource and `<public URL>/v1`), scope claim and `typ` rule, and what the
 * protected-resource metadata and the challenges say. `scopes`: every scope that exists (the role mapping's).
 */
export function mcpAuthOptions(settings: IdentitySettings, scopes: string[]): McpAuthOptions {
  return {
    publicUrl: settings.configuredPublicUrl,
    issuers: settings.issuers.map((issuer) => ({
      issuer: issuer.issuer,
      jwksUri: issuer.jwksUrl,
      audience: { mcp: issuer.audience, api: issuer.apiAudience ?? '/v1' },
      scopeClaim: issuer.scopeClaim,
      requireAtJwt: issuer.requireAtJwt,
    })),
    ...(settings.authorizationServers ? { authorizationServers: settings.authorizationServers } : {}),
    challengeScopes: settings.challengeScopes,
    scopes,
    maxTokenAgeMs: settings.jwtMaxAgeMs,
    clockToleranceSeconds: settings.clockToleranceSeconds,
    jwksCooldownMs: settings.jwksCooldownMs,
    jwksCacheMaxAgeMs: settings.jwksCacheMaxAgeMs,
    apiKeyHeader: 'X-API-Key',
    resourceName: 'Billing MCP server',
  };
}

/** PUBLIC_URL, validated, without trailing slashes; undefined when unset. */
function publicUrlFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.PUBLIC_URL?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL "${value}" is not a URL: use the base URL clients reach this server at, e.g. https://billing.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`PUBLIC_URL "${value}" must be an http(s) URL`);
  if (url.search || url.hash) throw new Error(`PUBLIC_URL "${value}" must not carry a query or a fragment`);
  return value.replace(/\/+$/, '');
}

function parseMaxAge(text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    throw new Error(`AUTH_JWT_MAX_AGE: ${(error as Error).message}`);
  }
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, unit: string): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer ≥ ${min} (${unit}) (got ${JSON.stringify(env[name])})`);
  }
  return value;
}

function unbound(): string {
  throw new Error('The public URL is derived from the bound address, and the server is not listening yet: set PUBLIC_URL');
}
