import type { RoleScopes } from './identity/role-scopes.js';

/**
 * The scopes of this application: what its routes and tools require (`@RequiredScopes()`,
 * `@McpTool({ scopes })`) and tokens carry. A new scope goes here and into a role below; the
 * boot fails on any scope named elsewhere that is not declared here.
 */
export const SCOPES = {
  billingRead: 'billing:read',
  billingWrite: 'billing:write',
  billingAdmin: 'billing:admin',
} as const;

/** What a person may do in a workspace, whatever scopes their token was minted with. */
export const APP_ROLE_SCOPES: RoleScopes = {
  viewer: [SCOPES.billingRead],
  accountant: [SCOPES.billingRead, SCOPES.billingWrite],
  admin: [SCOPES.billingRead, SCOPES.billingWrite, SCOPES.billingAdmin],
};

export const ALL_SCOPES: readonly string[] = Object.values(SCOPES);
