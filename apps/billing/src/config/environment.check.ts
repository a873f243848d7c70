import { InvalidEnvironmentError } from './environment.js';

/**
 * The entry points' first step (main.ts, the CLIs, through `appConfigOrExit()` in
 * `src/app-config.ts`): what `load` answers, the validated settings, or, for a bad variable, one
 * line naming it on stderr and exit code 1, before anything has started.
 */
export function validatedOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    console.error(`${error.message}. See docs/configuration.md.`);
    process.exit(1);
  }
}
