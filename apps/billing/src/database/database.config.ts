/**
 * The injection token of the database section (`DatabaseConfig`, declared with the core variables
 * in `src/config/environment.ts`: `DATABASE_*`), its `url` the database the entry point prepared.
 * `DatabaseModule` builds `PrismaService` from it (`@Inject(DATABASE_CONFIG) database: DatabaseConfig`).
 */
export const DATABASE_CONFIG = Symbol('DATABASE_CONFIG');
