import { booleanEnv } from '../config/boolean-variable.js';
import { integerVariable } from '../config/integer-variable.js';

/** Rate-limit settings from the environment (injected by {@link RATE_LIMIT_CONFIG}), validated at boot. */
export interface RateLimitConfig {
  /** `RATE_LIMIT_DISABLED=true`: the guard lets everything through and no store is contacted. */
  enabled: boolean;
  /** Units one token may spend per period (every token, whatever its workspace). */
  tokenLimit: number;
  /** Units all the tokens of one workspace may spend together per period. */
  workspaceLimit: number;
  /** The period the limits are expressed in: one minute. */
  periodMs: number;
  /** What one request costs (see `RateLimitCostPolicy`). */
  costs: RateLimitCosts;
  /** Shared store; unset: counters live in this process only. */
  redisUrl?: string;
  /** First segment of every Redis key (`<prefix>:token:<id>`, `<prefix>:workspace:<id>`). */
  keyPrefix: string;
  /** A Redis answer slower than this counts as Redis being unreachable. */
  redisTimeoutMs: number;
}

export interface RateLimitCosts {
  /** Any request not listed below: MCP `initialize`, `ping`, `server/discover`, lists, reads, REST reads. */
  default: number;
  /** `tools/call` of a `readOnlyHint` tool. */
  read: number;
  /** `tools/call` of a tool that is neither read-only nor destructive; REST POST/PUT/PATCH/DELETE. */
  write: number;
  /** `tools/call` of a `destructiveHint` tool (and the REST route that is the same handler). */
  destructive: number;
}

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
export function rateLimitConfigFromEnv(env: NodeJS.ProcessEnv): RateLimitConfig {
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  const keyPrefix = env.RATE_LIMIT_KEY_PREFIX?.trim() || 'rl';
  return {
    enabled: !booleanEnv('RATE_LIMIT_DISABLED', env.RATE_LIMIT_DISABLED, false),
    tokenLimit: integerVariable(env, 'RATE_LIMIT_TOKEN_PER_MINUTE', DEFAULT_TOKEN_PER_MINUTE, 1),
    workspaceLimit: integerVariable(env, 'RATE_LIMIT_WORKSPACE_PER_MINUTE', DEFAULT_WORKSPACE_PER_MINUTE, 1),
    periodMs: 60_000,
    costs: {
      default: integerVariable(env, 'RATE_LIMIT_COST_DEFAULT', 1, 0),
      read: integerVariable(env, 'RATE_LIMIT_COST_READ', 1, 0),
      write: integerVariable(env, 'RATE_LIMIT_COST_WRITE', 5, 0),
      destructive: integerVariable(env, 'RATE_LIMIT_COST_DESTRUCTIVE', 10, 0),
    },
    ...(redisUrl ? { redisUrl } : {}),
    keyPrefix,
    redisTimeoutMs: integerVariable(env, 'RATE_LIMIT_REDIS_TIMEOUT_MS', 250, 1),
  };
}
