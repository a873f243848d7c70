import { approvalsConfigFromEnv, type ApprovalsConfig } from './approvals/approvals.config.js';
import { validatedOrExit } from './config/environment.check.js';
import { coreConfigFromEnv, InvalidEnvironmentError, type CoreConfig } from './config/environment.js';
import { demoConfigFromEnv, type DemoConfig } from './demo/demo-mode.js';
import { idempotencyConfigFromEnv, type IdempotencyConfig } from './idempotency/idempotency.config.js';
import { identitySettingsFromEnv, type IdentitySettings } from './identity/identity.config.js';
import { tokenCacheOptionsFromEnv, type TokenCacheOptions } from './identity/token-cache.js';
import { observabilityConfigFromEnv, type ObservabilityConfig } from './observability/observability.config.js';
import { rateLimitConfigFromEnv, type RateLimitConfig } from './rate-limit/rate-limit.config.js';
import { statementsConfigFromEnv, type StatementsConfig } from './billing/statements/statements.config.js';
import { streamsConfigFromEnv, type StreamsConfig } from './streams/streams.config.js';
import { taskQueueConfigFromEnv, type TaskQueueConfig } from './tasks/task-queue.config.js';

/**
 * Every setting the application takes from its environment, validated, defaults applied: the core
 * sections (`server`, `database`, `health`, `mcp`: `CoreConfig`, src/config) and one typed section
 * per feature, each declared beside its feature with the token it is injected by. The composition
 * of the application, like `app.module.ts`: only the entry points use it (`main.ts`, `src/cli/*`,
 * a test's app). Modules never see it: `AppConfigModule` provides each section under its own
 * token (`RATE_LIMIT_CONFIG`, `CORE_CONFIG`, …), and a module injects the one it needs.
 */
export interface AppConfig extends CoreConfig {
  readonly identity: IdentitySettings;
  readonly tokenCache: TokenCacheOptions;
  readonly rateLimit: RateLimitConfig;
  readonly idempotency: IdempotencyConfig;
  readonly approvals: ApprovalsConfig;
  readonly streams: StreamsConfig;
  readonly taskQueue: TaskQueueConfig;
  readonly statements: StatementsConfig;
  readonly demo: DemoConfig;
  readonly observability: ObservabilityConfig;
}

/**
 * Reads and validates every variable the application declares: the core ones
 * (`EnvironmentVariables`), then each feature's (its `*FromEnv` schema, beside the feature). Throws
 * {@link InvalidEnvironmentError} listing every bad variable it found. Called once per boot, by the
 * entry point (`main.ts`, a CLI, a test's app), which hands the answer to `AppModule.forRoot`.
 */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  /** A feature's section, or its problem kept for the one error listing them all. */
  const section = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof InvalidEnvironmentError) problems.push(...error.problems);
      else problems.push((error as Error).message);
      return undefined as T;
    }
  };
  const config: AppConfig = {
    ...section(() => coreConfigFromEnv(env)),
    identity: section(() => identitySettingsFromEnv(env)),
    tokenCache: section(() => tokenCacheOptionsFromEnv(env)),
    rateLimit: section(() => rateLimitConfigFromEnv(env)),
    idempotency: section(() => idempotencyConfigFromEnv(env)),
    approvals: section(() => approvalsConfigFromEnv(env)),
    streams: section(() => streamsConfigFromEnv(env)),
    taskQueue: section(() => taskQueueConfigFromEnv(env)),
    statements: section(() => statementsConfigFromEnv(env)),
    demo: section(() => demoConfigFromEnv(env)),
    observability: section(() => observabilityConfigFromEnv(env)),
  };
  if (problems.length) throw new InvalidEnvironmentError(problems);
  return config;
}

/**
 * The entry points' first step (main.ts, the CLIs): the validated settings, or, for a bad
 * variable, one line naming it on stderr and exit code 1, before anything has started.
 */
export function appConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return validatedOrExit(() => loadAppConfig(env));
}
