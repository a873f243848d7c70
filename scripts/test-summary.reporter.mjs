// A `node --test` reporter that counts the tests that passed and failed (suites are not counted,
// the tests in them are; a skipped or todo test counts as skipped, and so does a skipped suite,
// whose tests never run and are never reported) and writes what did not run, grouped by reason
// (the `skip` message, e.g. "needs a real PostgreSQL: set DATABASE_URL …"), then the one line CI
// reads: "N passed, N failed, N skipped". scripts/run-tests.mjs prints both at the end of a run.
import { relative } from 'node:path';

export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  /** reason → lines "file: name (suite)". */
  const notRun = new Map();
  const remember = (data, reason, kind) => {
    const file = data.file ? relative(process.cwd(), data.file) : '?';
    const list = notRun.get(reason) ?? [];
    list.push(`${file}: ${data.name}${kind === 'suite' ? ' (suite: all its tests)' : ''}`);
    notRun.set(reason, list);
  };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') {
      // A suite fails on its own only when a hook or its body throws outside a test.
      if (event.type === 'test:fail' && data.details.error?.failureType !== 'subtestsFailed') failed += 1;
      else if (event.type === 'test:pass' && data.skip) {
        skipped += 1;
        remember(data, reasonOf(data.skip, 'skipped'), 'suite');
      }
      continue;
    }
    if (event.type === 'test:fail') failed += 1;
    else if (data.skip || data.todo) {
      skipped += 1;
      remember(data, data.skip ? reasonOf(data.skip, 'skipped') : reasonOf(data.todo, 'todo'), 'test');
    } else passed += 1;
  }
  if (notRun.size) {
    yield `Not run (${skipped}):\n`;
    for (const [reason, lines] of [...notRun].sort(([a], [b]) => a.localeCompare(b))) {
      yield `  ${reason} (${lines.length}):\n`;
      for (const line of lines.sort()) yield `    - ${line}\n`;
    }
  }
  yield `${passed} passed, ${failed} failed, ${skipped} skipped\n`;
}

/** `skip: true` / `todo: true` carry no message. */
function reasonOf(value, kind) {
  return typeof value === 'string' && value.trim() ? value.trim() : `${kind} (no reason given)`;
}
