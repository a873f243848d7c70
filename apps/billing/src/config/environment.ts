import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { EnvironmentVariables } from './environment.variables.js';

/** A variable with a value the server cannot use: the boot stops with this message. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/** The HTTP server and the process (`NODE_ENV`, `HOST`, `PORT`, `REPLICAS`, `API_DOCS`, `NEST_LOG_LEVEL`). */
export interface ServerConfig {
  /** `NODE_ENV=production`. */
  readonly production: boolean;
  /** NEST_LOG_LEVEL as set: when it is, Nest's levels are left to it. */
  readonly nestLogLevel?: string;
  readonly host: string;
  readonly port: number;
  /** REPLICAS, default 1. */
  readonly replicas: number;
  /**
   * `API_DOCS`: who may read /docs and /docs-json: `off`, `public`, or `authenticated` (a token
   * issued for the REST API). Default `off` in production (NODE_ENV=production), `public` otherwise.
   */
  readonly apiDocs: 'off' | 'public' | 'authenticated';
}

/** The database (`DATABASE_*`). */
export interface DatabaseConfig {
  /**
   * The database the application uses: `DATABASE_URL`, or (unset) the embedded database's URL,
   * which `main.ts` puts here once `prepareDatabase()` started it.
   */
  readonly url?: string;
  /** DATABASE_MIGRATE: false leaves the migrations to a deploy step. Default true. */
  readonly migrate: boolean;
  readonly poolSize: number;
  /**
   * DATABASE_PREPARED_STATEMENTS: hot reads go as named prepared statements (`PrismaService.prepared`).
   * false behind a transaction-mode pooler that does not keep them (PgBouncer before 1.21). Default true.
   */
  readonly preparedStatements: boolean;
  readonly connectTimeoutMs: number;
  /** `Retry-After` of the 503 answered while the database is unreachable. */
  readonly retryAfterSeconds: number;
}

/** Readiness and shutdown (`HEALTH_DB_TIMEOUT_MS`, `SHUTDOWN_*`). */
export interface HealthConfig {
  readonly databaseTimeoutMs: number;
  readonly shutdownDelayMs: number;
  readonly shutdownTimeoutMs: number;
}

/** The MCP layer's settings that come from the environment (`MCP_*`), handed to `McpModule.forRootAsync`. */
export interface McpConfig {
  readonly stateSecret?: string;
  readonly destructiveConfirmation?: 'elicitation-or-link' | 'link';
  /** `MCP_STREAMS`: the MCP endpoint's opt-in stream mode (packages/nest-mcp/docs/streams.md). Default off. */
  readonly streams: boolean;
  /**
   * `MCP_TASK_MAX_RUN_MS`: the layer's `tasks.maxRunMs` (docs/tasks.md), when set: a task's run taking
   * longer is stopped and fails, and a killed replica's task waits this long (plus a grace) before
   * another replica runs it. Unset: the layer's default (10 minutes).
   */
  readonly taskMaxRunMs?: number;
  /** `MCP_TASK_MAX_ACTIVE`: the layer's `tasks.maxActivePerWorkspace` when set (default 20 unfinished tasks per workspace). */
  readonly taskMaxActive?: number;
  /** `MCP_TASK_MAX_RUNNING`: the layer's `tasks.maxRunningPerWorkspace` when set (default 4 running at once per workspace). */
  readonly taskMaxRunning?: number;
}

/** What `EnvironmentVariables` declares, validated, with its defaults applied. */
export interface CoreConfig {
  readonly server: ServerConfig;
  readonly database: DatabaseConfig;
  readonly health: HealthConfig;
  readonly mcp: McpConfig;
}

/**
 * The injection token of the core sections ({@link CoreConfig}: server, database, health, the MCP
 * layer), for the modules that read them (`@Inject(CORE_CONFIG) core: CoreConfig`). Provided, with
 * every feature's own token, by the application's configuration module (`src/app-config.module.ts`);
 * the database module has a token of its own for its section (`DATABASE_CONFIG`).
 */
export const CORE_CONFIG = Symbol('CORE_CONFIG');

/** DATABASE_RETRY_AFTER_SECONDS's default; also what an outage found outside `PrismaService` answers. */
export const DEFAULT_DATABASE_RETRY_AFTER_SECONDS = 5;

/** The variables `EnvironmentVariables` declares. */
const NAMES: readonly string[] = [
  'NODE_ENV',
  'NEST_LOG_LEVEL',
  'HOST',
  'PORT',
  'REPLICAS',
  'DATABASE_URL',
  'DATABASE_MIGRATE',
  'DATABASE_POOL_SIZE',
  'DATABASE_PREPARED_STATEMENTS',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_RETRY_AFTER_SECONDS',
  'HEALTH_DB_TIMEOUT_MS',
  'SHUTDOWN_DELAY_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'MCP_STATE_SECRET',
  'MCP_DESTRUCTIVE_CONFIRMATION',
  'MCP_STREAMS',
  'MCP_TASK_MAX_RUN_MS',
  'MCP_TASK_MAX_ACTIVE',
  'MCP_TASK_MAX_RUNNING',
  'API_DOCS',
];

/**
 * The variables of the server, the database, health and the MCP layer (`EnvironmentVariables`),
 * validated, with their defaults; throws {@link InvalidEnvironmentError} naming every bad one.
 * One part of the application's configuration: `loadAppConfig()` (`src/app-config.ts`) adds the
 * features' own sections.
 */
export function coreConfigFromEnv(env: NodeJS.ProcessEnv): CoreConfig {
  const plain = Object.fromEntries(NAMES.map((name) => [name, env[name]]));
  const variables = plainToInstance(EnvironmentVariables, plain);
  const errors = validateSync(variables, { forbidUnknownValues: false });
  if (errors.length) throw new InvalidEnvironmentError(errors.map((error) => describe(error, env)));
  const production = env.NODE_ENV === 'production';
  const replicas = variables.REPLICAS ?? 1;
  if (replicas > 1 && !variables.MCP_STATE_SECRET) {
    throw new InvalidEnvironmentError([
      `REPLICAS=${replicas} needs MCP_STATE_SECRET (the same value on every replica): a multi round-trip retry may land on another replica, which must open the state this one sealed`,
    ]);
  }
  return {
    server: {
      production,
      nestLogLevel: variables.NEST_LOG_LEVEL || undefined,
      host: variables.HOST ?? '127.0.0.1',
      port: variables.PORT ?? 3000,
      replicas,
      apiDocs: variables.API_DOCS ?? (production ? 'off' : 'public'),
    },
    database: {
      url: variables.DATABASE_URL,
      migrate: variables.DATABASE_MIGRATE ?? true,
      poolSize: variables.DATABASE_POOL_SIZE ?? 10,
      preparedStatements: variables.DATABASE_PREPARED_STATEMENTS ?? true,
      connectTimeoutMs: variables.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000,
      retryAfterSeconds: variables.DATABASE_RETRY_AFTER_SECONDS ?? DEFAULT_DATABASE_RETRY_AFTER_SECONDS,
    },
    health: {
      databaseTimeoutMs: variables.HEALTH_DB_TIMEOUT_MS ?? 2_000,
      shutdownDelayMs: variables.SHUTDOWN_DELAY_MS ?? 0,
      shutdownTimeoutMs: variables.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    },
    mcp: {
      stateSecret: variables.MCP_STATE_SECRET,
      destructiveConfirmation: variables.MCP_DESTRUCTIVE_CONFIRMATION,
      streams: variables.MCP_STREAMS ?? false,
      taskMaxRunMs: variables.MCP_TASK_MAX_RUN_MS,
      taskMaxActive: variables.MCP_TASK_MAX_ACTIVE,
      taskMaxRunning: variables.MCP_TASK_MAX_RUNNING,
    },
  };
}

/** "DATABASE_POOL_SIZE must be an integer from 1 to 1000 (got "abc")": the first broken rule of one variable. */
function describe(error: ValidationError, env: NodeJS.ProcessEnv): string {
  // The type rule's message names the accepted range too; a range rule's alone would not say "integer".
  const constraints = error.constraints ?? {};
  const message = constraints.isInt ?? Object.values(constraints)[0] ?? `${error.property} is not valid`;
  return `${message} (got ${JSON.stringify(env[error.property])})`;
}
