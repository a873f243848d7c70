export const SCOPES = {
    billingRead: 'billing:read',
    billingWrite: 'billing:write',
    billingAdmin: 'billing:admin',
};
/** What a person may do in a workspace, whatever scopes a token was minted with. */
export const ROLE_SCOPES = {
    viewer: [SCOPES.billingRead],
    accountant: [SCOPES.billingRead, SCOPES.billingWrite],
    admin: [SCOPES.billingRead, SCOPES.billingWrite, SCOPES.billingAdmin],
};
export const ALL_SCOPES = Object.values(SCOPES);
const RANK = { viewer: 0, accountant: 1, admin: 2 };
export function highestRole(roles) {
    return [...roles].sort((a, b) => RANK[b] - RANK[a])[0];
}
//# sourceMappingURL=roles.js.map