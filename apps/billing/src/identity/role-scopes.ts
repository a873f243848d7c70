import type { Role } from '../generated/prisma/client.js';

/**
 * What each workspace role may do, as the scopes it allows. The application declares it once, in
 * `IdentityModule.forRoot({ roleScopes })`; it is also the list of scopes that exist, checked at
 * boot against every `@RequiredScopes()` and decorator `scopes`, and when a token is minted.
 */
export type RoleScopes = Readonly<Record<Role, readonly string[]>>;

/** Injection token of the application's {@link RoleScopes}. */
export const ROLE_SCOPES = Symbol('ROLE_SCOPES');

/** Every scope some role allows (a scope no role allows could never be used), sorted. */
export function declaredScopes(roleScopes: RoleScopes): string[] {
  return [...new Set(Object.values(roleScopes).flat())].sort();
}

const RANK: Record<Role, number> = { viewer: 0, accountant: 1, admin: 2 };

export function highestRole(roles: Role[]): Role | undefined {
  return [...roles].sort((a, b) => RANK[b] - RANK[a])[0];
}

/** Refuses a mapping that could only fail later: a role left out, a blank or malformed scope. */
export function assertRoleScopes(roleScopes: RoleScopes): void {
  for (const role of Object.keys(RANK) as Role[]) {
    const scopes = roleScopes[role];
    if (!Array.isArray(scopes))
      throw new Error(`IdentityModule.forRoot: roleScopes.${role} is missing; give it a list of scopes (may be empty)`);
    const bad = scopes.find((scope) => typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope));
    if (bad !== undefined)
      throw new Error(`IdentityModule.forRoot: roleScopes.${role} has ${JSON.stringify(bad)}, not an OAuth scope token (RFC 6749 §3.3)`);
  }
}
