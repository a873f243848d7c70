import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintToken, needsRealPostgres, startReplicas, type AppProcess } from '../support/app-process.js';
import { callTool } from '@nest-mcp/core/testing';
import { createTestDatabase, withClient, type TestDatabase } from '../support/test-database.js';
import { NO_LEDGER_FAULTS, checkLedger, createCustomer, invoiceWrite, ledgerFaults } from '../support/write-ledger.js';

/**
 * A crash: two server processes on one PostgreSQL behind a round-robin client; `kill -9` of one
 * of them during a stream of idempotent writes (`billing_invoice_create`, a unique
 * idempotency_key each). The client retries every failed or unanswered request on the other
 * replica with the same key. Afterwards every write exists exactly once, whole, with exactly one
 * success audit row, and every client got the invoice that is in the database.
 */

const WRITES = 120;
const WORKERS = 8;
const PREFIX = `crash-${process.pid}-`;

describe('kill -9 of a replica during a stream of idempotent writes', { skip: needsRealPostgres(), timeout: 180_000 }, () => {
  let database: TestDatabase;
  let a: AppProcess;
  let b: AppProcess;

  before(async () => {
    database = await createTestDatabase();
    // Rate limits are not what this test is about (see replicas.e2e-spec.ts).
    [a, b] = await startReplicas(2, {
      databaseUrl: database.url,
      env: { MCP_STATE_SECRET: randomBytes(32).toString('hex'), RATE_LIMIT_DISABLED: 'true' },
    });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
  });

  it(
    'every write exists exactly once with one audit row; clients retried on the survivor with the same key',
    { timeout: 120_000 },
    async (t) => {
      // For both surfaces: the customer is created over REST, the writes go over MCP (the demo token is for MCP only).
      const token = await mintToken(database.url);
      const customerId = await createCustomer(a.baseUrl, token, `crash-${process.pid}@crash.test`);
      const keys = Array.from({ length: WRITES }, (_, n) => `${PREFIX}${String(n).padStart(3, '0')}`);
      const replicas = [a, b];
      const other = (replica: AppProcess) => (replica === a ? b : a);
      const acknowledged = new Map<string, { invoiceId: string; replica: string; attempts: number; failedOnKilled: boolean }>();
      const figures = {
        requests: 0,
        retries: 0,
        faults: 0,
        failedOnKilled: 0,
        cutInFlight: 0,
        refused: 0,
        timeouts: 0,
        unexpected: [] as string[],
      };
      let killed = false;
      let roundRobin = 0;
      let next = 0;

      const writer = async () => {
        for (let n = next++; n < WRITES; n = next++) {
          const key = keys[n];
          let target = replicas[roundRobin++ % 2];
          let failedOnKilled = false;
          for (let attempt = 1; ; attempt++) {
            figures.requests++;
            if (attempt > 1) figures.retries++;
            try {
              const answer = await callTool(target.mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, key), {
                token,
                clientInfo: { name: 'crash-client', version: target.name },
                signal: AbortSignal.timeout(20_000),
              });
              const envelope = answer.status === 200 ? answer.envelope : undefined;
              if (envelope?.ok) {
                acknowledged.set(key, { invoiceId: envelope.data.id, replica: target.name, attempts: attempt, failedOnKilled });
                break;
              }
              figures.unexpected.push(`${target.name} ${answer.status} ${answer.text.slice(0, 300)}`);
            } catch (error) {
              // Refused, reset or cut by the kill, or no answer in time: the same call goes to the other replica.
              if ((error as Error).name === 'TimeoutError') figures.timeouts++;
              else if (((error as Error).cause as { code?: string } | undefined)?.code === 'ECONNREFUSED') figures.refused++;
              else figures.cutInFlight++;
              if (target === a && killed) {
                figures.failedOnKilled++;
                failedOnKilled = true;
              }
            }
            assert.ok(attempt < 10, `write ${key} never got through`);
            target = other(target);
          }
        }
      };

      let writersFailed: unknown;
      const writers = Promise.all(Array.from({ length: WORKERS }, writer)).catch((error: unknown) => {
        writersFailed = error;
        throw error;
      });
      // The fault: kill -9 of replica A once a third of the writes are in, with requests in flight on it.
      for (const deadline = Date.now() + 60_000; acknowledged.size < WRITES / 3; await sleep(5)) {
        if (writersFailed) throw writersFailed as Error;
        assert.ok(Date.now() < deadline, `${WRITES / 3} writes not acknowledged within 60 s: ${JSON.stringify(figures)}`);
      }
      a.kill('SIGKILL');
      killed = true;
      figures.faults++;
      const acknowledgedAtKill = acknowledged.size;
      assert.equal((await a.exited).signal, 'SIGKILL');
      await writers;

      assert.deepEqual(figures.unexpected, [], 'every answer was a success or a failure to reach the replica');
      assert.equal(acknowledged.size, WRITES);
      assert.ok(figures.failedOnKilled > 0, 'some requests were sent to the killed replica and retried on the survivor');

      const ledger = await checkLedger(database.url, PREFIX, keys);
      assert.deepEqual(ledgerFaults(ledger), NO_LEDGER_FAULTS);
      assert.equal(ledger.invoices, WRITES);
      assert.equal(ledger.writeAudits, WRITES);

      // Every client holds the invoice that is in the database, and which replica ran each write.
      const ranOnA = await withClient(database.url, async (client) => {
        const rows = (
          await client.query<{ id: string; notes: string }>('SELECT id, notes FROM invoices WHERE notes LIKE $1', [`${PREFIX}%`])
        ).rows;
        const stored = new Map(rows.map((row) => [row.notes, row.id]));
        const mismatched = keys.filter((key) => acknowledged.get(key)?.invoiceId !== stored.get(key));
        assert.deepEqual(mismatched, [], 'the answer a client got names the stored invoice');
        const audits = (
          await client.query<{ key: string; replica: string }>(
            `SELECT arguments->>'idempotency_key' AS key, client_version AS replica FROM mcp_audit_events
           WHERE method = 'tools/call' AND target = 'billing_invoice_create' AND outcome = 'success' AND arguments->>'idempotency_key' LIKE $1`,
            [`${PREFIX}%`],
          )
        ).rows;
        return new Set(audits.filter((row) => row.replica === a.name).map((row) => row.key));
      });
      // A write whose request to A died, but that A had committed: B answered it from the stored answer.
      const replayedAfterKill = [...acknowledged].filter(([key, ack]) => ack.failedOnKilled && ranOnA.has(key)).length;
      const rerunAfterKill = [...acknowledged].filter(([key, ack]) => ack.failedOnKilled && !ranOnA.has(key)).length;
      t.diagnostic(
        `crash figures: ${figures.requests} requests for ${WRITES} writes (${figures.retries} retries on the other replica), ` +
          `${figures.faults} fault (kill -9 of ${a.name} after ${acknowledgedAtKill} acknowledged writes), ` +
          `${figures.failedOnKilled} requests failed on the killed replica (${figures.cutInFlight} in flight cut, ${figures.refused} refused afterwards, ${figures.timeouts} timeouts), ` +
          `of those writes ${replayedAfterKill} had committed on ${a.name} and were answered from the stored answer, ${rerunAfterKill} ran on ${b.name}; ` +
          `duplicates ${ledger.duplicated.length}, losses ${ledger.lost.length}, half-written ${ledger.halfWritten.length}, ` +
          `audit mismatches ${ledger.auditMismatch.length} (${ledger.writeAudits} write audit rows, ${ledger.replayAudits} audit rows of replayed calls)`,
      );
    },
  );
});
