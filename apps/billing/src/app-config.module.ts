import { Module, type DynamicModule, type ValueProvider } from '@nestjs/common';
import type { AppConfig } from './app-config.js';
import { APPROVALS_CONFIG } from './approvals/approvals.config.js';
import { CORE_CONFIG, type CoreConfig } from './config/environment.js';
import { DATABASE_CONFIG } from './database/database.config.js';
import { IDEMPOTENCY_CONFIG } from './idempotency/idempotency.config.js';
import { IDENTITY_SETTINGS } from './identity/identity.config.js';
import { TOKEN_CACHE_OPTIONS } from './identity/token-cache.js';
import { OBSERVABILITY_CONFIG } from './observability/observability.config.js';
import { RATE_LIMIT_CONFIG } from './rate-limit/rate-limit.config.js';
import { STATEMENTS_CONFIG } from './billing/statements/statements.config.js';
import { STREAMS_CONFIG } from './streams/streams.config.js';
import { TASK_QUEUE_CONFIG } from './tasks/task-queue.config.js';

/**
 * Provides every section of the validated settings under its own token, to every module (global):
 * the core sections (`CORE_CONFIG`), the database's (`DATABASE_CONFIG`) and each feature's, the
 * token declared beside the feature's schema. Given, not read here: the entry point read and
 * validated them before anything started (`loadAppConfig()`), so nothing reads the environment
 * while modules are imported or created.
 */
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { server, database, health, mcp } = config;
    const core: CoreConfig = { server, database, health, mcp };
    const sections: ValueProvider[] = [
      { provide: CORE_CONFIG, useValue: core },
      { provide: DATABASE_CONFIG, useValue: database },
      { provide: IDENTITY_SETTINGS, useValue: config.identity },
      { provide: TOKEN_CACHE_OPTIONS, useValue: config.tokenCache },
      { provide: RATE_LIMIT_CONFIG, useValue: config.rateLimit },
      { provide: IDEMPOTENCY_CONFIG, useValue: config.idempotency },
      { provide: APPROVALS_CONFIG, useValue: config.approvals },
      { provide: STREAMS_CONFIG, useValue: config.streams },
      { provide: TASK_QUEUE_CONFIG, useValue: config.taskQueue },
      { provide: STATEMENTS_CONFIG, useValue: config.statements },
      { provide: OBSERVABILITY_CONFIG, useValue: config.observability },
    ];
    return { module: AppConfigModule, global: true, providers: sections, exports: sections.map((section) => section.provide) };
  }
}
