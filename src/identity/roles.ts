import type { Role } from '../generated/prisma/client.js';

export const SCOPES = {
  billingRead: 'billing:read',
  billingWrite: 'billing:write',
  billingAdmin: 'billing:admin',
} as const;

/** What a person may do in a workspace, whatever scopes a token was minted with. */
export const ROLE_SCOPES: Record<Role, readonly string[]> = {
  viewer: [SCOPES.billingRead],
  accountant: [SCOPES.billingRead, SCOPES.billingWrite],
  admin: [SCOPES.billingRead, SCOPES.billingWrite, SCOPES.billingAdmin],
};

export const ALL_SCOPES: readonly string[] = Object.values(SCOPES);

const RANK: Record<Role, number> = { viewer: 0, accountant: 1, admin: 2 };

export function highestRole(roles: Role[]): Role | undefined {
  return [...roles].sort((a, b) => RANK[b] - RANK[a])[0];
}
