import { randomBytes } from 'node:crypto';

/**
 * The Redis the package's tests run on: the machine's, as for the billing app's tests (CI runs one
 * at 127.0.0.1:6379; the tests do not skip without it, they fail). Another server: set
 * STREAMS_TEST_REDIS_URL (or RATE_LIMIT_TEST_REDIS_URL), the variables the app's tests read.
 * Each test keeps its keys under a prefix of its own run, so runs and developers share one Redis.
 */
export const TEST_REDIS_URL = process.env.STREAMS_TEST_REDIS_URL ?? process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other run uses: `<name>-<pid>-<random>`. */
export const runPrefix = (name: string): string => `${name}-${process.pid}-${randomBytes(3).toString('hex')}`;
