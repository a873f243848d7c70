/** Where a scope is named: `Class.method` (or `Class`) and the scopes it names there. */
export interface ScopeUsage {
  source: string;
  scopes: readonly string[];
}

/**
 * Fails the boot on a scope no one declared: a typo in `@RequiredScopes('billing:wirte')` or
 * `@McpTool({ scopes })` would otherwise refuse the route and hide the tool from every caller.
 * `declared` comes from the access policy; without it there is nothing to check against.
 */
export function checkScopeNames(declared: readonly string[] | undefined, usages: readonly ScopeUsage[]): void {
  if (!declared) return;
  const known = new Set(declared);
  const problems = usages.flatMap(({ source, scopes }) =>
    scopes
      .filter((scope) => !known.has(scope))
      .map((scope) => {
        const near = closest(scope, declared);
        return `${source}: "${scope}" is not a declared scope${near ? ` (did you mean "${near}"?)` : ''}`;
      }),
  );
  if (problems.length) {
    throw new Error(
      `${[...new Set(problems)].join('\n')}\nDeclared scopes: ${[...declared].sort().join(', ')}. ` +
        'A new scope is declared where the application maps roles to scopes (its access policy).',
    );
  }
}

/**
 * A method's `@RequiredScopes()` (which decorator `scopes` also write, see `declareMethodScopes`)
 * and each decorator's own `scopes` must say the same: otherwise REST and MCP would protect one
 * method differently.
 */
export function assertScopesAgree(
  source: string,
  routeScopes: readonly string[] | undefined,
  own: Record<string, readonly string[] | undefined>,
): void {
  if (!routeScopes) return;
  for (const [decorator, scopes] of Object.entries(own)) {
    if (scopes && !(scopes.length === routeScopes.length && scopes.every((scope) => routeScopes.includes(scope)))) {
      throw new Error(
        `${source}: @RequiredScopes(${routeScopes.join(', ')}) and @${decorator}({ scopes: [${scopes.join(', ')}] }) disagree. ` +
          'One declaration protects both the route and the MCP capability: keep one of them',
      );
    }
  }
}

/** The declared scope within two edits of `scope`, if any. */
function closest(scope: string, declared: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of declared) {
    const distance = editDistance(scope, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: a swapped pair of letters ("raed") counts as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
