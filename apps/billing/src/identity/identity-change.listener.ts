import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { TokenCache } from './token-cache.js';
import { PrismaService } from '../database/prisma.service.js';

/** The channel the identity_changed migration's triggers notify. */
export const IDENTITY_CHANGED_CHANNEL = 'identity_changed';
const RECONNECT_MS = 1_000;

/**
 * Revocation fan-out: one dedicated connection per replica LISTENs on `identity_changed`, which
 * the database notifies (at commit, whoever made the change) when anything a verified token grants
 * may have changed; each notification empties this replica's token cache. The cache answers only
 * while this connection listens: when it breaks, the cache is emptied and off until LISTEN is back.
 *
 * The embedded database (PGlite) is one backend shared by every connection, where a LISTEN would
 * catch other connections' notifications in their replies: there the cache stays off (the token
 * check is one query anyway).
 */
@Injectable()
export class IdentityChangeListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TokenCache');
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly cache: TokenCache,
    private readonly prisma: PrismaService,
  ) {}

  onModuleInit(): void {
    // Not awaited: the boot never waits for the cache, and a database down at boot only leaves it off.
    void this.connect(this.prisma.url);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.cache.disable();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(url: string): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    // Held from the start, so that a shutdown during the connection attempt ends it too.
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      this.cache.disable();
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      if (error) this.logger.warn(`Token cache off until the database is reachable again: ${error.message}`);
      this.retry = setTimeout(() => void this.connect(url), RECONNECT_MS);
      this.retry.unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('the notification connection ended')));
    client.on('notification', (message) => {
      if (message.channel === IDENTITY_CHANGED_CHANNEL) this.cache.clear();
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ version: string }>('SELECT version()');
      if (lost) return;
      if (rows[0]?.version.includes('PGlite') || this.stopped) {
        lost = true;
        await client.end();
        return;
      }
      await client.query(`LISTEN ${IDENTITY_CHANGED_CHANNEL}`);
      if (lost) return;
      if (this.stopped) {
        lost = true;
        await client.end();
        return;
      }
      this.cache.enable();
    } catch (error) {
      onLost(error as Error);
    }
  }
}
