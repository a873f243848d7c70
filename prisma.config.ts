import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

// Prisma's CLI would download a native schema engine; through a driver adapter it uses its
// WebAssembly engine instead, which works offline (see README "Database").
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? '' }),
});
