import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpDatabase } from '../database/mcp-database.js';
import type { ResolvedMcpPrismaOptions } from '../options/mcp-prisma.options.js';
import { McpAuditLog } from './mcp-audit-log.js';

/** A database whose INSERTs finish when the test says so; records how many rows each carried. */
function slowDatabase() {
  const inserts: Array<{ rows: number; finish: () => void }> = [];
  const database = {
    sql: (query: { values: unknown[] }) =>
      new Promise<void>((resolve) => inserts.push({ rows: query.values.length / COLUMNS_PER_ROW, finish: resolve })),
  } as unknown as McpDatabase;
  return { audit: new McpAuditLog(database, { channel: () => 'api' } as ResolvedMcpPrismaOptions), inserts };
}

const COLUMNS_PER_ROW = 15;
const event = (target: string) => ({ method: 'tools/call', target, outcome: 'success' as const, durationMs: 1, channel: 'mcp' as const });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('McpAuditLog.recordBatched', () => {
  it('starts a second INSERT for an event arriving during the first, and batches what arrives during both', async () => {
    const { audit, inserts } = slowDatabase();
    const stored: string[] = [];
    const record = (target: string) => audit.recordBatched(event(target)).then(() => stored.push(target));
    const first = record('a');
    await tick();
    const second = record('b');
    await tick();
    const waiting = [record('c'), record('d'), record('e')];
    await tick();
    assert.deepEqual(
      inserts.map((insert) => insert.rows),
      [1, 1],
      'two INSERTs in flight, one row each; the later events wait',
    );
    inserts[0].finish();
    await first;
    await tick();
    assert.deepEqual(
      inserts.map((insert) => insert.rows),
      [1, 1, 3],
      'the three waiting events share the next INSERT',
    );
    inserts[1].finish();
    inserts[2].finish();
    await Promise.all([second, ...waiting]);
    assert.deepEqual(stored.sort(), ['a', 'b', 'c', 'd', 'e']);
  });
});
