import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { PeriodicCleanup } from './periodic-cleanup.js';

class FakeCleanup extends PeriodicCleanup {
  readonly runs: Date[] = [];

  constructor(
    intervalMs: number,
    private readonly deleted: () => Promise<number>,
  ) {
    super({ loggerName: 'FakeCleanup', rows: 'fake rows', intervalMs });
  }

  protected deleteExpired(now: Date): Promise<number> {
    this.runs.push(now);
    return this.deleted();
  }
}

describe('PeriodicCleanup', () => {
  it('runs every interval from bootstrap until shutdown', async () => {
    const cleanup = new FakeCleanup(5, async () => 1);
    cleanup.onApplicationBootstrap();
    for (const deadline = Date.now() + 2_000; cleanup.runs.length < 2 && Date.now() < deadline;) await sleep(5);
    assert.ok(cleanup.runs.length >= 2, `${cleanup.runs.length} runs`);
    cleanup.onApplicationShutdown();
    const runs = cleanup.runs.length;
    await sleep(30);
    assert.equal(cleanup.runs.length, runs);
  });

  it('never runs by itself with an interval of 0, but runs when asked', async () => {
    const cleanup = new FakeCleanup(0, async () => 3);
    cleanup.onApplicationBootstrap();
    await sleep(30);
    assert.equal(cleanup.runs.length, 0);
    const now = new Date('2026-01-01T00:00:00Z');
    assert.equal(await cleanup.run(now), 3);
    assert.deepEqual(cleanup.runs, [now]);
  });

  it('logs a failed run and answers 0 instead of throwing (the next run retries)', async () => {
    const warn = mock.method(Logger.prototype, 'warn', () => undefined);
    try {
      const cleanup = new FakeCleanup(0, () => Promise.reject(new Error('database down')));
      assert.equal(await cleanup.run(), 0);
      assert.equal(warn.mock.callCount(), 1);
      assert.equal(warn.mock.calls[0].arguments[0], 'Cleanup of fake rows failed (retried next time): database down');
    } finally {
      warn.mock.restore();
    }
  });
});
