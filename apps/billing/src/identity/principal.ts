import type { Role } from '../generated/prisma/client.js';

export interface PrincipalMembership {
  workspaceId: string;
  slug: string;
  role: Role;
}

/**
 * Where a credential is accepted: `mcp`, the MCP endpoint (an agent's token), or `api`, the REST
 * API (a program acting for the person directly, with no MCP confirmation in between).
 */
export type Surface = 'mcp' | 'api';
export const SURFACES: readonly Surface[] = ['mcp', 'api'];

/**
 * The person a credential acts for, as `@nest-mcp/auth`'s principal carries it (its `user`): the
 * answer of the JWT user resolver (`ExternalIdentityService`) or of the personal-token verifier.
 */
export interface BillingUser {
  userId: string;
  email: string;
  memberships: PrincipalMembership[];
  /** Set when the credential (a personal token) is bound to one workspace. */
  workspaceId?: string;
}

/** The authenticated caller: a person acting through a token. Never holds the token itself. */
export interface Principal {
  userId: string;
  email: string;
  /** Id of the personal access token, or `jwt:<jti or sub>` for an external access token. */
  tokenId: string;
  /** `panel`: a person signed in on the admin pages, acting there (e.g. approving a call). */
  kind: 'personal' | 'jwt' | 'panel';
  scopes: string[];
  /**
   * Who the credential stands for in per-caller limits, when that is not the token itself: a JWT's
   * issuer + subject (every new access token of one subject shares its bucket). Default: `tokenId`.
   */
  callerId?: string;
  /**
   * The person whose call this is, when another acts for it: the requester of a destructive call a
   * person approved on the admin pages (it runs as the approver). Idempotency keys are theirs.
   */
  onBehalfOf?: string;
  /** The surfaces the credential was issued for (a panel session: none; it is used on the admin pages only). */
  surfaces: Surface[];
  /** Set when the token is bound to one workspace. */
  workspaceId?: string;
  memberships: PrincipalMembership[];
}
