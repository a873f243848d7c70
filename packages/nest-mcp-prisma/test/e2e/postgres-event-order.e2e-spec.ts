import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { McpDatabase, PostgresEventStore } from '../../src/index.js';
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../support/package-database.js';

/**
 * Events come back in the order they were appended when their positions gain a digit (9 → 10):
 * positions are the table's sequence, read as text, and must be ordered as numbers. A resumed
 * stream replays in order, and the first record of a server→client request stays the first.
 */
const message = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

describe('PostgresEventStore: order across a change in the number of digits', { skip: NEEDS_DATABASE }, () => {
  let database: PackageDatabase;
  let db: McpDatabase;
  before(async () => {
    database = await createPackageDatabase();
    db = new McpDatabase({ url: database.url });
  });
  after(async () => {
    await db?.onApplicationShutdown();
    await database?.close();
  });

  it('lists and replays the events of a stream in the order appended, from position 9 to 11', async () => {
    await database.rows(`SELECT setval(pg_get_serial_sequence('mcp_stream_events', 'seq'), 7)`);
    const events = new PostgresEventStore(db, { retentionMs: 60_000, maxPerStream: 10 });
    const sessionId = randomUUID();
    const stream = `${sessionId}/post-${randomUUID()}`;
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(await events.append(stream, message(n)));
    assert.deepEqual(
      ids.map((id) => id.slice(id.lastIndexOf(':') + 1)),
      ['8', '9', '10', '11'],
    );
    assert.deepEqual(
      (await events.eventsOf(stream)).map((event) => event.id),
      ids,
    );
    assert.deepEqual(
      (await events.replayAfter(ids[0], sessionId))?.events.map((event) => event.id),
      ids.slice(1),
    );
  });
});
