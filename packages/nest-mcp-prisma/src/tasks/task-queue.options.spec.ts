import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveTaskQueueOptions } from './task-queue.options.js';

describe('resolveTaskQueueOptions', () => {
  it('fills every default: 2 workers, LISTEN with polling each second, 10 s heartbeats, pg-boss schema pgboss, queue mcp-tasks', () => {
    assert.deepEqual(resolveTaskQueueOptions(), {
      workers: 2,
      pollIntervalMs: 1000,
      listen: true,
      heartbeatSeconds: 10,
      superviseIntervalSeconds: 10,
      retryLimit: 10,
      expiryGraceMs: 5000,
      stopTimeoutMs: 10_000,
      schema: 'pgboss',
      queue: 'mcp-tasks',
    });
  });

  it('keeps what is given; 0 workers is a replica that only enqueues', () => {
    const resolved = resolveTaskQueueOptions({ workers: 0, pollIntervalMs: 500, schema: 'jobs', queue: 'billing.tasks' });
    assert.equal(resolved.workers, 0);
    assert.equal(resolved.pollIntervalMs, 500);
    assert.equal(resolved.schema, 'jobs');
    assert.equal(resolved.queue, 'billing.tasks');
    const pooled = resolveTaskQueueOptions({ listen: false, heartbeatSeconds: 0, connectionString: 'postgresql://db-direct/app' });
    assert.deepEqual([pooled.listen, pooled.heartbeatSeconds, pooled.connectionString], [false, 0, 'postgresql://db-direct/app']);
  });

  it('refuses a wrong value at boot, naming the option and what it must be', () => {
    assert.throws(() => resolveTaskQueueOptions({ workers: -1 }), /tasks\.workers must be a whole number ≥ 0, got -1/);
    assert.throws(() => resolveTaskQueueOptions({ pollIntervalMs: 100 }), /tasks\.pollIntervalMs must be a whole number ≥ 500, got 100/);
    assert.throws(() => resolveTaskQueueOptions({ retryLimit: 1.5 }), /tasks\.retryLimit must be a whole number ≥ 1/);
    assert.throws(() => resolveTaskQueueOptions({ schema: 'Jobs; DROP' }), /tasks\.schema must be a lower-case identifier/);
    assert.throws(() => resolveTaskQueueOptions({ queue: 'a queue' }), /tasks\.queue must be letters, digits/);
    assert.throws(
      () => resolveTaskQueueOptions({ heartbeatSeconds: 5 }),
      /tasks\.heartbeatSeconds must be 0 \(off\) or a whole number ≥ 10, got 5/,
    );
  });
});
