/** Identity settings from the environment, read once. */
export interface IdentityConfig {
  /** Public base URL of this server (`resource` of the protected-resource metadata). */
  publicUrl?: string;
  /** External authorization server whose JWT access tokens are accepted (issuer). */
  jwtIssuer?: string;
  /** JWKS URL of that authorization server. */
  jwksUrl?: string;
  /** Expected `aud` of JWTs; defaults to this resource's MCP URL. */
  jwtAudience?: string;
}

export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');

export function identityConfigFromEnv(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  return {
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    jwtIssuer: env.AUTH_JWT_ISSUER,
    jwksUrl: env.AUTH_JWKS_URL,
    jwtAudience: env.AUTH_JWT_AUDIENCE,
  };
}
