import { Logger } from '@nestjs/common';
import { createClient, type RedisClientType } from '@redis/client';
import { runScript } from './redis-script.js';

/**
 * The Redis connections of stream mode: one for commands, and one more for pub/sub (a subscribed
 * connection cannot send other commands), opened when the first subscription is made. Commands
 * while Redis is unreachable fail at once (no offline queue behind requests) and reconnects are
 * automatic. Every key and channel starts with `<keyPrefix>:`, so applications (and test runs)
 * can share one Redis. `McpRedisModule` owns one; an application that picks its backends at run
 * time makes its own, connects it and closes it.
 */
export class RedisConnection {
  private readonly logger = new Logger('McpStreamsRedis');
  readonly commands: RedisClientType;
  private subscriber?: Promise<RedisClientType>;
  private lastWarning = 0;

  /** `url`: `redis://` or `rediss://`, with the user and password if the server wants them. */
  constructor(
    readonly url: string,
    readonly keyPrefix: string,
  ) {
    this.commands = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
    });
    this.commands.on('error', (error: Error) => this.warn(error));
  }

  /** Connects the command connection; resolves when Redis answers (it keeps retrying until then). */
  async connect(): Promise<void> {
    if (!this.commands.isOpen) await this.commands.connect();
  }

  /**
   * Connects in the background: the application boots with Redis down, as with the rate-limit
   * store (stream mode is one feature; everything else must keep serving). Until Redis answers,
   * stream mode's commands fail at once and a warning is logged.
   */
  connectInBackground(): void {
    this.connect().catch((error: unknown) => this.warn(error as Error));
  }

  /** `<keyPrefix>:<part>:<part>…` */
  key(...parts: string[]): string {
    return [this.keyPrefix, ...parts].join(':');
  }

  /** Runs a Lua script by its SHA, sending it the first time a server does not know it. */
  script(source: string, keys: string[], args: string[]): Promise<unknown> {
    return runScript(this.commands, source, keys, args);
  }

  /** The pub/sub connection, opened at the first call (a failed opening is tried again at the next). */
  subscriberConnection(): Promise<RedisClientType> {
    this.subscriber ??= (async () => {
      const client = this.commands.duplicate() as RedisClientType;
      client.on('error', (error: Error) => this.warn(error));
      await client.connect();
      return client;
    })().catch((error: unknown) => {
      this.subscriber = undefined;
      throw error;
    });
    return this.subscriber;
  }

  /** Closes both connections at once (what is in flight fails). */
  async close(): Promise<void> {
    const subscriber = await this.subscriber?.catch(() => undefined);
    if (subscriber?.isOpen) subscriber.destroy();
    if (this.commands.isOpen) this.commands.destroy();
  }

  private warn(error: Error): void {
    if (Date.now() - this.lastWarning < 60_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(`Redis (stream mode): ${error.message}`);
  }
}
