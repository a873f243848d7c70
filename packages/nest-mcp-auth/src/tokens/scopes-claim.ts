/** The granted scopes, from a space-separated string (`scope`, Entra ID's `scp`) or an array of strings (Okta's `scp`). */
export function scopesOfClaim(claim: unknown): string[] {
  const scopes =
    typeof claim === 'string'
      ? claim.split(' ')
      : Array.isArray(claim)
        ? claim.filter((scope): scope is string => typeof scope === 'string')
        : [];
  return [...new Set(scopes.filter((scope) => scope.length > 0))];
}
