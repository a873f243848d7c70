import type { McpAuthOptions } from '@nest-mcp/auth';
import { parseDuration } from './duration.js';

/** Identity settings from the environment (injected by {@link IDENTITY_SETTINGS}), validated at boot. */
export interface IdentitySettings {
  /** PUBLIC_URL as configured: the server is reachable by that name (and Host is checked against it). */
  readonly configuredPublicUrl?: string;
  /** External authorization server whose JWT access tokens are accepted (issuer). */
  readonly jwtIssuer?: string;
  /** JWKS URL of that authorization server. */
  readonly jwksUrl?: string;
  /** AUTH_JWKS_COOLDOWN_MS (default 30 s): the least time between two fetches of the JWKS (an unknown key id refetches it). */
  readonly jwksCooldownMs: number;
  /** Expected `aud` of JWTs on the MCP endpoint (AUTH_JWT_AUDIENCE); defaults to `${publicUrl}${mcpPath}`. */
  readonly jwtAudience?: string;
  /** Expected `aud` of JWTs on the REST API (AUTH_JWT_API_AUDIENCE); defaults to `${publicUrl}/v1`. */
  readonly jwtApiAudience?: string;
  /** Longest lifetime accepted for a JWT, `exp` minus `iat` (or minus now): AUTH_JWT_MAX_AGE, default 24 h. */
  readonly jwtMaxAgeMs: number;
  /**
   * AUTH_JWT_LINK_VERIFIED_EMAIL (default false): a subject of the issuer seen for the first time is
   * linked to the existing user whose email its token carries, only with `email_verified: true` and
   * only when that user has no subject at the issuer yet. Off: only linked subjects are accepted.
   */
  readonly jwtLinkVerifiedEmail: boolean;
  /**
   * AUTH_JWT_PROVISION_USERS (default false): a subject nobody linked becomes a new user of its own
   * (no workspace until an admin adds one), never an existing user.
   */
  readonly jwtProvisionUsers: boolean;
  /**
   * The JWT claim that carries the granted scopes (AUTH_JWT_SCOPE_CLAIM, default `scope`; Okta and
   * Entra ID use `scp`): a space-separated string or an array of strings.
   */
  readonly jwtScopeClaim: string;
  /**
   * `authorization_servers` of the protected-resource metadata (AUTH_AUTHORIZATION_SERVERS,
   * comma-separated; default the JWT issuer): where clients get tokens, when that is not the issuer URL.
   */
  readonly authorizationServers: string[];
  /**
   * The scopes named in the 401 challenge of a request without a token (AUTH_CHALLENGE_SCOPE,
   * space-separated; default `billing:read`, empty for none): what a client asks for on its first
   * connect, instead of every scope the server supports. More is asked for by step-up (403).
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

/**
 * The identity variables (PUBLIC_URL, AUTH_*); throws (the boot fails) on settings that would be
 * unsafe, such as JWT mode without a fixed audience.
 */
export function identitySettingsFromEnv(env: NodeJS.ProcessEnv): IdentitySettings {
  const configuredPublicUrl = publicUrlFromEnv(env);
  const jwtIssuer = env.AUTH_JWT_ISSUER || undefined;
  const jwksUrl = env.AUTH_JWKS_URL || undefined;
  const jwtAudience = env.AUTH_JWT_AUDIENCE || undefined;
  if (jwtIssuer && jwksUrl && !jwtAudience && !configuredPublicUrl) {
    throw new Error(
      'JWT authentication (AUTH_JWT_ISSUER + AUTH_JWKS_URL) needs a fixed audience: set PUBLIC_URL to the URL clients use ' +
        '(the audience is then <PUBLIC_URL>/mcp) or AUTH_JWT_AUDIENCE. It is never taken from the request.',
    );
  }
  return {
    configuredPublicUrl,
    jwtIssuer,
    jwksUrl,
    jwksCooldownMs: jwksCooldownMs(env),
    jwtAudience,
    jwtApiAudience: env.AUTH_JWT_API_AUDIENCE || undefined,
    jwtMaxAgeMs: env.AUTH_JWT_MAX_AGE ? parseMaxAge(env.AUTH_JWT_MAX_AGE) : DEFAULT_JWT_MAX_AGE_MS,
    jwtLinkVerifiedEmail: flag(env, 'AUTH_JWT_LINK_VERIFIED_EMAIL'),
    jwtProvisionUsers: flag(env, 'AUTH_JWT_PROVISION_USERS'),
    jwtScopeClaim: env.AUTH_JWT_SCOPE_CLAIM?.trim() || 'scope',
    authorizationServers: env.AUTH_AUTHORIZATION_SERVERS?.trim()
      ? env.AUTH_AUTHORIZATION_SERVERS.split(',')
          .map((url) => url.trim())
          .filter(Boolean)
      : jwtIssuer
        ? [jwtIssuer]
        : [],
    challengeScopes: (env.AUTH_CHALLENGE_SCOPE ?? DEFAULT_CHALLENGE_SCOPE).split(/\s+/).filter(Boolean),
  };
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
 * `@nest-mcp/auth`'s options from these settings: the JWT issuer (AUTH_JWT_ISSUER + AUTH_JWKS_URL)
 * with its audiences (AUTH_JWT_AUDIENCE, else the MCP resource; AUTH_JWT_API_AUDIENCE, else
 * `<public URL>/v1`) and scope claim, and what the protected-resource metadata and the challenges
 * say. `scopes`: every scope that exists (the role mapping's).
 */
export function mcpAuthOptions(settings: IdentitySettings, scopes: string[]): McpAuthOptions {
  const { jwtIssuer, jwksUrl } = settings;
  return {
    publicUrl: settings.configuredPublicUrl,
    issuers:
      jwtIssuer && jwksUrl
        ? [
            {
              issuer: jwtIssuer,
              jwksUri: jwksUrl,
              audience: { mcp: settings.jwtAudience, api: settings.jwtApiAudience ?? '/v1' },
              scopeClaim: settings.jwtScopeClaim,
            },
          ]
        : [],
    authorizationServers: settings.authorizationServers,
    challengeScopes: settings.challengeScopes,
    scopes,
    maxTokenAgeMs: settings.jwtMaxAgeMs,
    jwksCooldownMs: settings.jwksCooldownMs,
    apiKeyHeader: 'X-API-Key',
    resourceName: 'Billing MCP server',
  };
}

/** The baseline a client asks for first: reading. Writing and admin are asked for when a call needs them. */
export const DEFAULT_CHALLENGE_SCOPE = 'billing:read';

/** A true/false setting; anything else stops the boot (a typo must not leave a safety switch in an unknown state). */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
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

function jwksCooldownMs(env: NodeJS.ProcessEnv): number {
  const raw = env.AUTH_JWKS_COOLDOWN_MS?.trim();
  if (!raw) return DEFAULT_JWKS_COOLDOWN_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`AUTH_JWKS_COOLDOWN_MS must be an integer ≥ 0 (milliseconds) (got ${JSON.stringify(env.AUTH_JWKS_COOLDOWN_MS)})`);
  }
  return value;
}

function unbound(): string {
  throw new Error('The public URL is derived from the bound address, and the server is not listening yet: set PUBLIC_URL');
}
