import { Global, Module } from '@nestjs/common';
import type { DatabaseConfig } from '../config/environment.js';
import { DATABASE_CONFIG } from './database.config.js';
import { PrismaService } from './prisma.service.js';

@Global()
@Module({
  providers: [
    {
      provide: PrismaService,
      useFactory: (database: DatabaseConfig) => {
        if (!database.url) throw new Error('No database URL: main.ts gives AppModule the one prepareDatabase() answered');
        return new PrismaService({ ...database, url: database.url });
      },
      inject: [DATABASE_CONFIG],
    },
  ],
  exports: [PrismaService],
})
export class DatabaseModule {}
