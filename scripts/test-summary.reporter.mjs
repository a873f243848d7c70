// A `node --test` reporter that counts the tests that passed and failed (suites are not counted,
// the tests in them are, a skipped or todo test is counted as skipped) and prints the one line CI
// reads: "N passed, N failed, N skipped".
export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') {
      // A suite fails on its own only when a hook or its body throws outside a test.
      if (event.type === 'test:fail' && event.data.details.error?.failureType !== 'subtestsFailed') failed += 1;
      continue;
    }
    if (event.type === 'test:fail') failed += 1;
    else if (event.data.skip || event.data.todo) skipped += 1;
    else passed += 1;
  }
  yield `${passed} passed, ${failed} failed, ${skipped} skipped\n`;
}
