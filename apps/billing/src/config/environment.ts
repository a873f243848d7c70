import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { EnvironmentVariables } from './environment.variables.js';

/** The environment after validation, with the defaults applied. */
export interface Environment {
  /** The variables as they were set: what the per-feature `*FromEnv` readers read. */
  readonly raw: Readonly<Record<string, string | undefined>>;
  readonly production: boolean;
  /** NEST_LOG_LEVEL as set: when it is, Nest's levels are left to it. */
  readonly nestLogLevel?: string;
  readonly host: string;
  readonly port: number;
  /** REPLICAS, default 1. */
  readonly replicas: number;
  readonly databaseUrl?: string;
  /** DATABASE_MIGRATE: false leaves the migrations to a deploy step. Default true. */
  readonly migrateDatabase: boolean;
  readonly databasePoolSize: number;
  readonly databaseConnectTimeoutMs: number;
  readonly databaseRetryAfterSeconds: number;
  readonly healthDatabaseTimeoutMs: number;
  readonly shutdownDelayMs: number;
  readonly shutdownTimeoutMs: number;
  readonly jwksCooldownMs: number;
  readonly mcpStateSecret?: string;
  readonly mcpDestructiveConfirmation?: 'elicitation-or-link' | 'link';
  /** `MCP_STREAMS`: the MCP endpoint's opt-in stream mode (packages/nest-mcp/docs/streams.md). Default off. */
  readonly mcpStreams: boolean;
  /**
   * `MCP_TASK_MAX_RUN_MS`: the layer's `tasks.maxRunMs` (docs/tasks.md), when set: a task's run taking
   * longer is stopped and fails, and a killed replica's task waits this long (plus a grace) before
   * another replica runs it. Unset: the layer's default (10 minutes).
   */
  readonly mcpTaskMaxRunMs?: number;
  /**
   * `API_DOCS`: who may read /docs and /docs-json: `off`, `public`, or `authenticated` (a token
   * issued for the REST API). Default `off` in production (NODE_ENV=production), `public` otherwise.
   */
  readonly apiDocs: 'off' | 'public' | 'authenticated';
}

/** A variable with a value the server cannot use: the boot stops with this message. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/** The variables `EnvironmentVariables` declares (the only ones read into the typed settings). */
const NAMES: readonly string[] = [
  'NODE_ENV',
  'NEST_LOG_LEVEL',
  'HOST',
  'PORT',
  'REPLICAS',
  'DATABASE_URL',
  'DATABASE_MIGRATE',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_RETRY_AFTER_SECONDS',
  'HEALTH_DB_TIMEOUT_MS',
  'SHUTDOWN_DELAY_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'AUTH_JWKS_COOLDOWN_MS',
  'MCP_STATE_SECRET',
  'MCP_DESTRUCTIVE_CONFIRMATION',
  'MCP_STREAMS',
  'MCP_TASK_MAX_RUN_MS',
  'API_DOCS',
];

let last: { source: NodeJS.ProcessEnv; fingerprint: string; environment: Environment } | undefined;

/**
 * The one reader of `process.env`: validates the variables (`EnvironmentVariables`) and returns
 * typed settings, or throws {@link InvalidEnvironmentError} naming every bad variable. `main.ts`
 * calls it first, so a bad value stops the boot before anything starts. The answer is kept while
 * the variables stay the same (tests that change one between two apps get a fresh read).
 */
export function readEnvironment(source: NodeJS.ProcessEnv = process.env): Environment {
  const fingerprint = NAMES.map((name) => source[name] ?? '\u0000').join('\u0001');
  if (last?.source === source && last.fingerprint === fingerprint) return last.environment;
  const environment = validate(source);
  last = { source, fingerprint, environment };
  return environment;
}

/** `process.env` for the per-feature readers (`rateLimitConfigFromEnv(rawEnvironment())`), after validation. */
export function rawEnvironment(): NodeJS.ProcessEnv {
  readEnvironment();
  return process.env;
}

function validate(source: NodeJS.ProcessEnv): Environment {
  const plain = Object.fromEntries(NAMES.map((name) => [name, source[name]]));
  const variables = plainToInstance(EnvironmentVariables, plain);
  const errors = validateSync(variables, { forbidUnknownValues: false });
  if (errors.length) throw new InvalidEnvironmentError(errors.map((error) => describe(error, source)));
  const production = source.NODE_ENV === 'production';
  const replicas = variables.REPLICAS ?? 1;
  if (replicas > 1 && !variables.MCP_STATE_SECRET) {
    throw new InvalidEnvironmentError([
      `REPLICAS=${replicas} needs MCP_STATE_SECRET (the same value on every replica): a multi round-trip retry may land on another replica, which must open the state this one sealed`,
    ]);
  }
  return {
    raw: source,
    production,
    nestLogLevel: variables.NEST_LOG_LEVEL || undefined,
    host: variables.HOST ?? '127.0.0.1',
    port: variables.PORT ?? 3000,
    replicas,
    databaseUrl: variables.DATABASE_URL,
    migrateDatabase: variables.DATABASE_MIGRATE ?? true,
    databasePoolSize: variables.DATABASE_POOL_SIZE ?? 10,
    databaseConnectTimeoutMs: variables.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000,
    databaseRetryAfterSeconds: variables.DATABASE_RETRY_AFTER_SECONDS ?? 5,
    healthDatabaseTimeoutMs: variables.HEALTH_DB_TIMEOUT_MS ?? 2_000,
    shutdownDelayMs: variables.SHUTDOWN_DELAY_MS ?? 0,
    shutdownTimeoutMs: variables.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    jwksCooldownMs: variables.AUTH_JWKS_COOLDOWN_MS ?? 30_000,
    mcpStateSecret: variables.MCP_STATE_SECRET,
    mcpDestructiveConfirmation: variables.MCP_DESTRUCTIVE_CONFIRMATION,
    mcpStreams: variables.MCP_STREAMS ?? false,
    mcpTaskMaxRunMs: variables.MCP_TASK_MAX_RUN_MS,
    apiDocs: variables.API_DOCS ?? (production ? 'off' : 'public'),
  };
}

/** "DATABASE_POOL_SIZE must be an integer from 1 to 1000 (got "abc")": the first broken rule of one variable. */
function describe(error: ValidationError, source: NodeJS.ProcessEnv): string {
  // The type rule's message names the accepted range too; a range rule's alone would not say "integer".
  const constraints = error.constraints ?? {};
  const message = constraints.isInt ?? Object.values(constraints)[0] ?? `${error.property} is not valid`;
  return `${message} (got ${JSON.stringify(source[error.property])})`;
}
