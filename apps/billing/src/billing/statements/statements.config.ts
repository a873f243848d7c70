import { integerVariable } from '../../config/integer-variable.js';

/** The statement export's settings from the environment (injected by {@link STATEMENTS_CONFIG}), validated at boot. */
export interface StatementsConfig {
  /** `STATEMENT_EXPORT_MAX_BYTES`: the largest statement file an export may store; past it, `statement_too_large` and nothing stored. */
  readonly maxBytes: number;
}

export const STATEMENTS_CONFIG = Symbol('STATEMENTS_CONFIG');

/** 1 GiB: about six million rows. The file is written a part at a time, so the limit is disk, not memory. */
export const DEFAULT_STATEMENT_MAX_BYTES = 1024 ** 3;
/** A file's size is a 32-bit column (`attachments.size_bytes`). */
const MOST_BYTES = 2 ** 31 - 1;

/** `STATEMENT_EXPORT_MAX_BYTES` (default 1 GiB, from 1024 to 2147483647); a bad value stops the boot, naming the variable. */
export function statementsConfigFromEnv(env: NodeJS.ProcessEnv): StatementsConfig {
  const maxBytes = integerVariable(env, 'STATEMENT_EXPORT_MAX_BYTES', DEFAULT_STATEMENT_MAX_BYTES, 1024);
  if (maxBytes > MOST_BYTES) {
    throw new Error(
      `STATEMENT_EXPORT_MAX_BYTES must be at most ${MOST_BYTES} (a file's size is a 32-bit column), got "${env.STATEMENT_EXPORT_MAX_BYTES}"`,
    );
  }
  return { maxBytes };
}
