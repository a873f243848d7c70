import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/** `npm test` itself (scripts/run-tests.mjs and its summary reporter), run on small inputs. */

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** Runs `node <args>` at the repository root, as a run of its own: without the marker of the run this test is in. */
async function run(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const { NODE_TEST_CONTEXT: _context, DATABASE_URL: _database, ...env } = process.env;
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output };
}

describe('npm test', { timeout: 180_000 }, () => {
  it('runs the files that match any of several filters', async () => {
    const { code, output } = await run(['scripts/run-tests.mjs', 'src/demo/demo-mode.spec', 'src/cleanup/periodic-cleanup.spec']);
    assert.equal(code, 0, output);
    assert.match(output, /2 test file\(s\)/);
    assert.match(output, /demoModeFromEnv/);
    assert.match(output, /^\d+ passed, 0 failed, 0 skipped$/m);
    assert.match(output.trimEnd().split('\n').at(-1)!, /^[1-9]\d* passed, 0 failed, 0 skipped$/, 'the count is the last line');
  });

  it('fails at once on a filter that matches no file, naming it', async () => {
    const { code, output } = await run(['scripts/run-tests.mjs', 'src/demo/demo-mode.spec', 'no-such-test-file-xyz']);
    assert.equal(code, 1);
    assert.match(output, /No test file matches "no-such-test-file-xyz"/);
    assert.match(output, /0 passed, 1 failed, 0 skipped\s*$/);
  });

  it('says what did not run, grouped by reason, above the count', async () => {
    const reporter = new URL('../../../../scripts/test-summary.reporter.mjs', import.meta.url).href;
    const fixture = fileURLToPath(new URL('../fixtures/skips.fixture.mjs', import.meta.url));
    const { output } = await run(['--test', `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', fixture]);
    const lines = output.trimEnd().split('\n');
    assert.equal(lines.at(-1), '1 passed, 0 failed, 5 skipped');
    assert.equal(lines[0], 'Not run (5):');
    const text = lines.join('\n');
    assert.match(
      text,
      /needs a fixture server \(2\):\n {4}- .*skips\.fixture\.mjs: fixture suite that needs a server \(suite: all its tests\)\n {4}- .*skips\.fixture\.mjs: is skipped with a reason/,
    );
    assert.match(text, /no fixture browser \(1\):\n {4}- .*: skips itself at run time/);
    assert.match(text, /skipped \(no reason given\) \(1\):\n {4}- .*: is skipped without a reason/);
    assert.match(text, /todo \(no reason given\) \(1\):\n {4}- .*: is a todo/);
  });
});
