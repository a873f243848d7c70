import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MinLength, Min } from 'class-validator';
import { booleanRule, parseBoolean } from './boolean-variable.js';

/** `"10"` → 10, `"abc"` → NaN (then refused by @IsInt, naming the variable); unset or blank → undefined. */
const toNumber = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : undefined));
/** An accepted on/off spelling (`boolean-variable.ts`) → its boolean, anything else kept (then refused by @IsIn, naming the variable); unset or blank → undefined. */
const toBoolean = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    return parseBoolean(value) ?? value;
  });
const blankIsUnset = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined));

/**
 * The variables of the server, the database, health and the MCP layer, as a class-validator DTO
 * (`coreConfigFromEnv()`): a bad value stops the boot with the variable's name instead of becoming
 * `NaN` or a silent default. Every value is optional; the defaults are applied beside it, in
 * `coreConfigFromEnv`.
 *
 * A feature's own variables (rate limits, idempotency, approvals, identity, the token cache,
 * streams, tasks, demo mode, logs and tracing) are declared beside the feature, by its `*FromEnv`
 * schema; `loadAppConfig()` (`src/app-config.ts`) composes them all and validates them once, at boot.
 */
export class EnvironmentVariables {
  @IsOptional() @IsString() NODE_ENV?: string;

  /** Nest's own log-level variable (`debug`, `warn,error`, `>=log`); Nest validates its value. */
  @IsOptional() @IsString() NEST_LOG_LEVEL?: string;

  @IsOptional() @blankIsUnset() @IsString() HOST?: string;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'PORT must be an integer from 0 to 65535 (0 picks a free port)' })
  @Min(0)
  @Max(65_535)
  PORT?: number;

  /** How many replicas serve this deployment; more than one needs MCP_STATE_SECRET. */
  @IsOptional() @toNumber() @IsInt({ message: 'REPLICAS must be a positive integer' }) @Min(1) REPLICAS?: number;

  @IsOptional()
  @blankIsUnset()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgresql:// URL' })
  DATABASE_URL?: string;

  @IsOptional() @toBoolean() @IsIn([true, false], { message: booleanRule('DATABASE_MIGRATE') }) DATABASE_MIGRATE?: boolean;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'DATABASE_POOL_SIZE must be an integer from 1 to 1000' })
  @Min(1)
  @Max(1_000)
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @toBoolean()
  @IsIn([true, false], { message: booleanRule('DATABASE_PREPARED_STATEMENTS') })
  DATABASE_PREPARED_STATEMENTS?: boolean;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'DATABASE_CONNECT_TIMEOUT_MS must be an integer ≥ 1 (milliseconds)' })
  @Min(1)
  DATABASE_CONNECT_TIMEOUT_MS?: number;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'DATABASE_RETRY_AFTER_SECONDS must be an integer ≥ 1' })
  @Min(1)
  DATABASE_RETRY_AFTER_SECONDS?: number;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'HEALTH_DB_TIMEOUT_MS must be an integer ≥ 1 (milliseconds)' })
  @Min(1)
  HEALTH_DB_TIMEOUT_MS?: number;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'SHUTDOWN_DELAY_MS must be an integer ≥ 0 (milliseconds)' })
  @Min(0)
  SHUTDOWN_DELAY_MS?: number;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer ≥ 0 (milliseconds)' })
  @Min(0)
  SHUTDOWN_TIMEOUT_MS?: number;

  /** HMAC key of multi round-trip state, shared by every replica. */
  @IsOptional()
  @blankIsUnset()
  @MinLength(32, { message: 'MCP_STATE_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)' })
  MCP_STATE_SECRET?: string;

  @IsOptional() @toBoolean() @IsIn([true, false], { message: booleanRule('MCP_STREAMS') }) MCP_STREAMS?: boolean;

  @IsOptional()
  @blankIsUnset()
  @IsIn(['elicitation-or-link', 'link'], { message: 'MCP_DESTRUCTIVE_CONFIRMATION must be elicitation-or-link or link' })
  MCP_DESTRUCTIVE_CONFIRMATION?: 'elicitation-or-link' | 'link';

  /** The layer's `tasks.maxRunMs`: how long a task's run may take, and how long a dead worker's job waits. */
  @IsOptional()
  @toNumber()
  @IsInt({ message: 'MCP_TASK_MAX_RUN_MS must be an integer ≥ 1000 (milliseconds)' })
  @Min(1000, { message: 'MCP_TASK_MAX_RUN_MS must be an integer ≥ 1000 (milliseconds)' })
  MCP_TASK_MAX_RUN_MS?: number;

  /** The layer's `tasks.maxActivePerWorkspace`: unfinished tasks one workspace may have. */
  @IsOptional()
  @toNumber()
  @IsInt({ message: 'MCP_TASK_MAX_ACTIVE must be an integer ≥ 1' })
  @Min(1, { message: 'MCP_TASK_MAX_ACTIVE must be an integer ≥ 1' })
  MCP_TASK_MAX_ACTIVE?: number;

  /** The layer's `tasks.maxRunningPerWorkspace`: tasks of one workspace running at once, across replicas. */
  @IsOptional()
  @toNumber()
  @IsInt({ message: 'MCP_TASK_MAX_RUNNING must be an integer ≥ 1' })
  @Min(1, { message: 'MCP_TASK_MAX_RUNNING must be an integer ≥ 1' })
  MCP_TASK_MAX_RUNNING?: number;

  /** Who may read the REST API documentation (/docs, /docs-json). */
  @IsOptional()
  @blankIsUnset()
  @IsIn(['off', 'public', 'authenticated'], { message: 'API_DOCS must be off, public or authenticated' })
  API_DOCS?: 'off' | 'public' | 'authenticated';
}
