/**
 * An integer setting of a feature's own reader (`RATE_LIMIT_*`, `MCP_STREAMS_*`): `fallback` when
 * unset or blank, else an integer ≥ `min`, or an error naming the variable that stops the boot.
 */
export function integerVariable(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}
