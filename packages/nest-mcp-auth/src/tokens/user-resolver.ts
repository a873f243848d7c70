import type { JWTPayload } from 'jose';

/** A JWT whose signature, issuer, audience, expiry and lifetime were checked. */
export interface McpVerifiedToken {
  issuer: string;
  subject: string;
  /** Every claim of the token. An email claim is the issuer's word, not a user of this server: link subjects, not emails. */
  claims: JWTPayload;
}

/**
 * Who a verified JWT acts as in the application (`users` of `McpAuthModule`): its user, looked up by
 * issuer and subject (linked, provisioned, …), or a string, the reason it is refused (the 401's message).
 * Without one, the principal is the issuer and subject, with no `user`.
 */
export interface McpUserResolver<User = unknown> {
  resolve(token: McpVerifiedToken): Promise<User | string>;
}

export const MCP_AUTH_USER_RESOLVER = Symbol('MCP_AUTH_USER_RESOLVER');
