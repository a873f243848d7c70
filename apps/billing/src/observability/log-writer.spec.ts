import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { flushLogs, writeLogLine } from './log-writer.js';

function capture(run: () => void): Array<[stream: string, text: string]> {
  const writes: Array<[string, string]> = [];
  const original = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = (chunk: string) => writes.push(['stdout', String(chunk)]) > 0;
  process.stderr.write = (chunk: string) => writes.push(['stderr', String(chunk)]) > 0;
  try {
    run();
  } finally {
    process.stdout.write = original.out;
    process.stderr.write = original.err;
  }
  return writes;
}

describe('buffered log writer', () => {
  it('writes queued stdout lines together, in order, on flush', () => {
    const writes = capture(() => {
      writeLogLine('stdout', 'one\n');
      writeLogLine('stdout', 'two\n');
      flushLogs();
    });
    assert.deepEqual(writes, [['stdout', 'one\ntwo\n']]);
  });

  it('writes a stderr line at once, after the stdout lines queued before it', () => {
    const writes = capture(() => {
      writeLogLine('stdout', 'before\n');
      writeLogLine('stderr', 'error\n');
    });
    assert.deepEqual(writes, [
      ['stdout', 'before\n'],
      ['stderr', 'error\n'],
    ]);
  });

  it('writes queued lines within the flush interval', async () => {
    const writes: string[] = [];
    const original = process.stdout.write;
    // The test runner reports through stdout meanwhile (binary chunks): those pass through.
    process.stdout.write = (chunk: unknown, ...rest: unknown[]) =>
      typeof chunk === 'string'
        ? writes.push(chunk) > 0
        : (original as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    try {
      writeLogLine('stdout', 'later\n');
      assert.deepEqual(writes, []);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.stdout.write = original;
    }
    assert.deepEqual(writes, ['later\n']);
  });

  it('loses nothing when the process exits right after logging', () => {
    const writer = fileURLToPath(new URL('./log-writer.js', import.meta.url));
    const script = `import { writeLogLine } from ${JSON.stringify(writer)};
      for (let i = 0; i < 1000; i++) writeLogLine('stdout', 'line ' + i + '\\n');
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 3, child.stderr);
    const lines = child.stdout.trim().split('\n');
    assert.equal(lines.length, 1000);
    assert.equal(lines.at(-1), 'line 999');
  });
});
