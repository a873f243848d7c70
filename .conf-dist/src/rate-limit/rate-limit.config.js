import { rawEnvironment } from '../config/environment.js';
export const RATE_LIMIT_CONFIG = Symbol('RATE_LIMIT_CONFIG');
export const DEFAULT_TOKEN_PER_MINUTE = 1200;
export const DEFAULT_WORKSPACE_PER_MINUTE = 6000;
/**
 * `RATE_LIMIT_TOKEN_PER_MINUTE` (default 1200), `RATE_LIMIT_WORKSPACE_PER_MINUTE` (default 6000),
 * `RATE_LIMIT_COST_READ` / `_WRITE` / `_DESTRUCTIVE` / `_DEFAULT` (1 / 5 / 10 / 1),
 * `RATE_LIMIT_DISABLED`, `REDIS_URL`, `RATE_LIMIT_KEY_PREFIX` (default `rl`) and
 * `RATE_LIMIT_REDIS_TIMEOUT_MS` (default 250). A bad value stops the boot: a limit silently read
 * as 0 or NaN would refuse everyone, or no one.
 */
export function rateLimitConfigFromEnv(env = rawEnvironment()) {
    const redisUrl = env.REDIS_URL?.trim() || undefined;
    if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
        throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
    const keyPrefix = env.RATE_LIMIT_KEY_PREFIX?.trim() || 'rl';
    return {
        enabled: !isTrue(env, 'RATE_LIMIT_DISABLED'),
        tokenLimit: integer(env, 'RATE_LIMIT_TOKEN_PER_MINUTE', DEFAULT_TOKEN_PER_MINUTE, 1),
        workspaceLimit: integer(env, 'RATE_LIMIT_WORKSPACE_PER_MINUTE', DEFAULT_WORKSPACE_PER_MINUTE, 1),
        periodMs: 60_000,
        costs: {
            default: integer(env, 'RATE_LIMIT_COST_DEFAULT', 1, 0),
            read: integer(env, 'RATE_LIMIT_COST_READ', 1, 0),
            write: integer(env, 'RATE_LIMIT_COST_WRITE', 5, 0),
            destructive: integer(env, 'RATE_LIMIT_COST_DESTRUCTIVE', 10, 0),
        },
        ...(redisUrl ? { redisUrl } : {}),
        keyPrefix,
        redisTimeoutMs: integer(env, 'RATE_LIMIT_REDIS_TIMEOUT_MS', 250, 1),
    };
}
function integer(env, name, fallback, min) {
    const raw = env[name]?.trim();
    if (!raw)
        return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min)
        throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
    return value;
}
function isTrue(env, name) {
    const raw = env[name]?.trim().toLowerCase();
    if (!raw || raw === 'false' || raw === '0' || raw === 'no')
        return false;
    if (raw === 'true' || raw === '1' || raw === 'yes')
        return true;
    throw new Error(`${name} must be true or false, got "${env[name]}"`);
}
//# sourceMappingURL=rate-limit.config.js.map