/**
 * A JWT's id as the audit trail and the rate limits name it: `jwt:<iss>#<sub>`, plus `#<jti>` when
 * the token has one (one token told from the next). `sub` and `jti` are percent-encoded, so that no
 * subject can pass for a subject and a jti.
 */
export function jwtTokenId(claims: { iss?: string; sub?: string; jti?: unknown }): string {
  const part = (value: string) => encodeURIComponent(value);
  return `jwt:${claims.iss}#${part(claims.sub ?? '')}${typeof claims.jti === 'string' ? `#${part(claims.jti)}` : ''}`;
}
