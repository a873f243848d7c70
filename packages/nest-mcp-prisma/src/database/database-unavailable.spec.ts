import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';
import { asDatabaseUnavailable, DatabaseUnavailableException, isDatabaseUnavailable } from './database-unavailable.js';

const known = (code: string, message: string, meta?: Record<string, unknown>) =>
  new PrismaClientKnownRequestError(message, { code, clientVersion: '6.19', meta });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect', errno: -111 });

describe('database outage detection', () => {
  it('recognises the shapes seen when the database is cut (as a cut connection throws them)', () => {
    const unreachable = {
      driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 } },
    };
    for (const error of [
      known('P1001', "Can't reach database server at 127.0.0.1:5432", unreachable),
      known('P2010', 'Raw query failed. Code: `N/A`.', unreachable),
      known('P1017', 'Server has closed the connection.'),
      known('P2024', 'Timed out fetching a new connection from the connection pool.'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300', severity: 'FATAL' }),
      Object.assign(new Error('wrapped'), { cause: { kind: 'ConnectionClosed' } }),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, String(error));
      const mapped = asDatabaseUnavailable(error);
      assert.ok(mapped instanceof DatabaseUnavailableException);
      assert.equal(mapped.getStatus(), 503);
      assert.equal(mapped.cause, error);
    }
  });

  it('leaves query errors alone: constraint violations, bad input, missing rows', () => {
    for (const error of [
      known('P2002', 'Unique constraint failed on the fields: (`email`)'),
      known('P2025', 'Record to update not found.'),
      known('P2010', 'Raw query failed.', { driverAdapterError: { cause: { kind: 'postgres', code: '22P02', originalCode: '22P02' } } }),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505', severity: 'ERROR' }),
      new Error('division by zero'),
      new TypeError('x is not a function'),
      undefined,
      'a string',
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error));
      assert.equal(asDatabaseUnavailable(error), error);
    }
  });

  it('answers 503 with Retry-After: the seconds the connection options give, default 5', () => {
    const byDefault = new DatabaseUnavailableException();
    assert.deepEqual(byDefault.getResponse(), {
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Database unavailable, retry after 5 s',
      headers: { 'Retry-After': '5' },
    });
    assert.equal(new DatabaseUnavailableException(undefined, 2).message, 'Database unavailable, retry after 2 s');
    const mapped = asDatabaseUnavailable(new Error('Connection terminated unexpectedly'), 2);
    assert.ok(mapped instanceof DatabaseUnavailableException);
    assert.equal(mapped.retryAfterSeconds, 2);
  });
});
