import type { AppConfig } from '../app-config.js';
import { prepareDatabase } from '../database/prepare-database.js';
import { PrismaService } from '../database/prisma.service.js';

/**
 * Runs `work` on the CLIs' database: DATABASE_URL's, or the embedded one (also while `npm start`
 * is running on it), closed afterwards whatever happens. `embedded` says which it was (the demo
 * users exist only on the embedded database in demo mode).
 */
export async function withCliDatabase<T>(config: AppConfig, work: (prisma: PrismaService, embedded: boolean) => Promise<T>): Promise<T> {
  const database = await prepareDatabase({ url: config.database.url, logger: (line) => console.error(line) });
  const prisma = new PrismaService({ ...config.database, url: database.url });
  try {
    return await work(prisma, database.embedded);
  } finally {
    await prisma.onApplicationShutdown();
    await database.close();
  }
}

/** Runs a CLI's `main`: a failure prints its message alone (never a stack trace) and exits 1. */
export function runCli(main: () => Promise<void>): void {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
