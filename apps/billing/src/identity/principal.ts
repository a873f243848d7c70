import type { Role } from '../generated/prisma/client.js';

export interface PrincipalMembership {
  workspaceId: string;
  slug: string;
  role: Role;
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
  /** Set when the token is bound to one workspace. */
  workspaceId?: string;
  memberships: PrincipalMembership[];
}
