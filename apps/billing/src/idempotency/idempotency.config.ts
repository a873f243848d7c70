/** Idempotency settings from the environment (injected by {@link IDEMPOTENCY_CONFIG}), validated at boot. */
export interface IdempotencyConfig {
  /** How long a stored answer is replayed; after that the key may be used again. */
  ttlSeconds: number;
  /** How often expired rows are deleted; 0 = never (tests, or a job outside the app does it). */
  cleanupIntervalMs: number;
}

export const IDEMPOTENCY_CONFIG = Symbol('IDEMPOTENCY_CONFIG');

/**
 * `IDEMPOTENCY_TTL_HOURS` (default 24, fractions allowed) and `IDEMPOTENCY_CLEANUP_MINUTES`
 * (default 60; 0 turns it off; always off when NODE_ENV=test, so no timer runs beside a test).
 * A bad value stops the boot: a silently wrong TTL would replay, or run twice, for hours.
 */
export function idempotencyConfigFromEnv(env: NodeJS.ProcessEnv): IdempotencyConfig {
  const hours = positiveNumber(env, 'IDEMPOTENCY_TTL_HOURS', 24, false);
  const minutes = env.NODE_ENV === 'test' ? 0 : positiveNumber(env, 'IDEMPOTENCY_CLEANUP_MINUTES', 60, true);
  return { ttlSeconds: Math.max(1, Math.round(hours * 3600)), cleanupIntervalMs: Math.round(minutes * 60_000) };
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, zeroAllowed: boolean): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !zeroAllowed)) {
    throw new Error(`${name} must be a ${zeroAllowed ? 'number ≥ 0' : 'number > 0'}, got "${raw}"`);
  }
  return value;
}
