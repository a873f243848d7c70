/**
 * Where a credential is accepted: `mcp`, the MCP endpoint (an agent's token), or `api`, every other
 * route (the REST API a program calls for the person directly, with no MCP confirmation in between).
 */
export type McpSurface = 'mcp' | 'api';

/** One authorization server whose JWT access tokens this server accepts. */
export interface McpAuthIssuer {
  /** Its issuer identifier, exactly as its tokens' `iss` claim says it. */
  issuer: string;
  /** Its JSON Web Key Set: the keys its tokens are signed with (fetched again when a new key id appears). */
  jwksUri: string;
  /**
   * The `aud` a token must name to be accepted on each surface: one value or several. A value that
   * starts with `/` is a path under `publicUrl` (`'/v1'`). Default: `mcp` is the MCP endpoint as a
   * resource (`<publicUrl><MCP path>`), `api` is `<publicUrl>`.
   */
  audience?: { mcp?: string | string[]; api?: string | string[] };
  /**
   * The claim that carries the granted scopes: a space-separated string or an array of strings.
   * Default `scope`; Okta and Entra ID use `scp`.
   */
  scopeClaim?: string;
  /**
   * Whether its tokens must be typed `at+jwt` in their JOSE header (RFC 9068 §4: a resource server
   * rejects any other `typ`, so that an ID token or another JWT of the same issuer is never taken
   * for an access token). Default true. False for a provider whose access tokens say `JWT` or
   * nothing (Microsoft Entra ID, Keycloak, Okta, Auth0's default profile).
   */
  requireAtJwt?: boolean;
}

/** `McpAuthModule.forRoot()` / what `forRootAsync()`'s factory returns. */
export interface McpAuthOptions {
  /**
   * This server's public base URL (`https://api.example.com`), with no query: the OAuth resource,
   * the challenge's `resource_metadata` and the default audiences are built on it. Default: the
   * address the server is bound to (known once it listens). Never taken from a request's `Host`.
   */
  publicUrl?: string;
  /**
   * The authorization servers whose JWTs are accepted: a token's `iss` picks its issuer's JWKS
   * before the signature is checked. May be empty only when `tokenVerifiers` check every token.
   */
  issuers: McpAuthIssuer[];
  /**
   * `authorization_servers` of the protected-resource metadata: the issuers clients are sent to for
   * a token. Each must be an `issuer`, spelled exactly as its `iss` (a boot error otherwise): a
   * client checks that the server's metadata names the URL it was sent to (RFC 8414 §3.3), and a
   * token from a server that is not an issuer would be refused. Leave an issuer out to keep
   * accepting its tokens without sending new clients to it (a migration). Default: every `issuer`.
   */
  authorizationServers?: string[];
  /**
   * The scopes the 401 challenge of a request without a token names (`scope="…"`). Default: none,
   * so a client asks for every scope of the metadata's `scopes_supported` (the MCP authorization
   * spec's scope selection). A client registering dynamically registers with exactly the scopes
   * of its first authorization, and a provider that caps a client at its registered scope
   * (RFC 7591 §2) then refuses any step-up beyond them: name a baseline here only when clients are
   * registered with every scope (pre-registered, or a client ID metadata document listing them).
   */
  challengeScopes?: string[];
  /**
   * After a step-up challenge (403 `insufficient_scope`), how long a token of the same caller
   * issued after it that still lacks the scope gets a plain refusal (the authorization server did
   * not grant it; another authorization would not either) instead of the same challenge again.
   * Default: 10 min. 0 challenges every time.
   */
  stepUpWindowMs?: number;
  /** Every scope that exists: the MCP layer checks each scope a decorator names against them at boot, and the metadata lists them. */
  scopes?: string[];
  /** Longest lifetime accepted for a JWT, `exp` minus `iat` (or minus now). Default: 24 h. */
  maxTokenAgeMs?: number;
  /** Clock drift allowed between the authorization server and this one, on `exp`, `nbf` and `iat`. Default: 5 s. */
  clockToleranceSeconds?: number;
  /** The least time between two fetches of an issuer's JWKS (an unknown key id fetches it again). Default: 30 s. */
  jwksCooldownMs?: number;
  /** How long fetched keys are used before the JWKS is fetched again. Default: 10 min. */
  jwksCacheMaxAgeMs?: number;
  /** A second header a token may come in, when `Authorization` is absent (`X-API-Key`). Default: none. */
  apiKeyHeader?: string;
  /** `resource_name` of the protected-resource metadata (shown by clients). Default: none. */
  resourceName?: string;
}

/** The options with every default filled, as the package's providers read them. */
export interface ResolvedMcpAuthOptions {
  publicUrl?: string;
  issuers: Array<{
    issuer: string;
    jwksUri: URL;
    audience: { mcp?: string[]; api?: string[] };
    scopeClaim: string;
    requireAtJwt: boolean;
  }>;
  authorizationServers: string[];
  challengeScopes: string[];
  stepUpWindowMs: number;
  scopes?: string[];
  maxTokenAgeMs: number;
  clockToleranceSeconds: number;
  jwksCooldownMs: number;
  jwksCacheMaxAgeMs: number;
  apiKeyHeader?: string;
  resourceName?: string;
}

export const MCP_AUTH_OPTIONS = Symbol('MCP_AUTH_OPTIONS');
