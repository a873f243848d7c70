// Types of scripts/migrate-deploy.mjs, for src/database/migrations.ts.
export declare const PRISMA_MIGRATE_LOCK: number;
export declare function localMigrations(root: string): Array<{ name: string; script: string; checksum: string }>;
export declare function migrationsUpToDate(databaseUrl: string, root: string): Promise<boolean>;
export declare function deployMigrations(databaseUrl: string, options: { root: string; log?: (line: string) => void }): Promise<string[]>;
