import { Sql } from '@prisma/client/runtime/client';
import type { Db } from 'pg-boss';
import type { McpDatabase } from '../database/mcp-database.js';

/**
 * A pg-boss database (its `db` option, accepted per call by `send`, `complete` and the others)
 * whose statements run through `McpDatabase.sql`: inside `database.transaction(…)` they run in
 * that transaction, on its connection. A job sent with it exists if and only if the transaction
 * commits, together with the task row written in the same transaction.
 *
 * Without it pg-boss would write on its own pool: a job committed at once for a task that may
 * still roll back, and on the embedded database (one backend, held by the open transaction) a
 * write that waits for the transaction that waits for it.
 */
export function transactionBossDb(database: McpDatabase): Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const { rows } = await database.sql(sqlOf(text, values));
      return { rows };
    },
  };
}

/**
 * pg-boss's `$n` statement as a `Sql`, which numbers its parameters in order of appearance:
 * a number used twice becomes two parameters with the same value. (pg-boss's statements have no
 * `$<digits>` in literals; only `$1` appears in the ones sent here.)
 */
export function sqlOf(text: string, values: readonly unknown[]): Sql {
  const strings: string[] = [];
  const ordered: unknown[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    strings.push(text.slice(last, match.index));
    ordered.push(values[Number(match[1]) - 1]);
    last = match.index + match[0].length;
  }
  strings.push(text.slice(last));
  return new Sql(strings, ordered);
}
