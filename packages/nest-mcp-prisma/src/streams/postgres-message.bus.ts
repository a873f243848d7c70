import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { type McpMessageBus, MessageBusListeners } from '@nest-mcp/core/extensions';
import type { McpDatabase } from '../database/mcp-database.js';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_NOTIFY_BYTES = 7999;
const RECONNECT_MS = 1_000;

/**
 * The bus over LISTEN/NOTIFY, for replicas that share only the database. One PostgreSQL channel
 * carries every bus channel (`{"c": channel, "p": payload}`): bus channel names are arbitrary
 * strings, PostgreSQL's are identifiers of at most 63 bytes. One dedicated connection per replica
 * listens (a pooled one would be handed to queries); it reconnects after a loss, and what was
 * published meanwhile is lost, as the bus promises (at-most-once; the event store is for replay).
 * A message must fit in a NOTIFY (under 8000 bytes); for larger ones use a Redis bus. NOTIFY is sent
 * on a pooled connection outside any request's transaction: inside one it would wait for the
 * commit, and vanish with a rollback.
 */
export class PostgresMessageBus implements McpMessageBus, OnApplicationShutdown {
  private readonly logger = new Logger('McpStreamsBus');
  private readonly listeners = new MessageBusListeners();
  private client?: pg.Client;
  private listening?: Promise<void>;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly database: McpDatabase,
    /** The PostgreSQL channel: replicas of one application share it, other applications on the server use their own. */
    private readonly pgChannel = 'mcp_bus',
  ) {}

  async publish(channel: string, payload: unknown): Promise<void> {
    const text = JSON.stringify({ c: channel, p: payload });
    if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) {
      throw new Error(
        `Bus message on "${channel}" is ${Buffer.byteLength(text)} bytes; PostgreSQL NOTIFY carries under 8000: use a Redis bus for larger messages.`,
      );
    }
    await this.database.outsideTransaction(() => this.database.sql(sql`SELECT pg_notify(${this.pgChannel}, ${text})`));
  }

  async subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>> {
    await this.listen();
    const { remove } = this.listeners.add(channel, onMessage);
    return async () => {
      remove();
    };
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The listening connection, opened on first use; a subscribe waits until LISTEN is active. */
  private listen(): Promise<void> {
    this.listening ??= this.connect().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async connect(): Promise<void> {
    if (this.stopped) throw new Error('The message bus is closed');
    const client = new pg.Client({ connectionString: this.database.url, connectionTimeoutMillis: 5_000 });
    this.client = client;
    let lost = false;
    const onLost = (error: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`Bus connection lost (${error.message}); reconnecting, messages published meanwhile are not received`);
      this.retry = setTimeout(() => {
        this.listening = undefined;
        if (!this.listeners.isEmpty) void this.listen().catch(() => undefined);
      }, RECONNECT_MS);
      this.retry.unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('the connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== this.pgChannel || !message.payload) return;
      let parsed: { c?: unknown; p?: unknown };
      try {
        parsed = JSON.parse(message.payload) as { c?: unknown; p?: unknown };
      } catch {
        return; // not ours: someone else NOTIFYing on the channel
      }
      if (typeof parsed.c !== 'string') return;
      this.listeners.deliver(parsed.c, parsed.p);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.pgChannel)}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
  }
}
