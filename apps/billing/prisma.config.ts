import { defineConfig } from 'prisma/config';

// Prisma 7: the URL lives here, not in the schema. Only Prisma's own CLI reads this file, and only
// for commands that need its native schema engine (`migrate diff`, `studio`, …: machines with
// network access); `generate` never connects, and `node scripts/prisma.mjs migrate deploy` applies
// prisma/migrations without the CLI (src/database/migrations.ts). See docs/database.md.
export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres' },
});
