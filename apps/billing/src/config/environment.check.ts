import { InvalidEnvironmentError, readEnvironment } from './environment.js';

// Imported first by the entry points (main.ts, the token CLI): a bad variable stops the process
// here, with one line naming it, before any module reads its settings (ES modules run in import
// order, so nothing else has run yet).
try {
  readEnvironment();
} catch (error) {
  if (!(error instanceof InvalidEnvironmentError)) throw error;
  console.error(`${error.message}. See docs/configuration.md.`);
  process.exit(1);
}
