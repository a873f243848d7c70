import type { Sql } from '@prisma/client/runtime/client';
import type pg from 'pg';

/**
 * Writes waiting for the commit as one statement: each a data-modifying `WITH` query, which
 * PostgreSQL runs whether or not the outer query reads it. They must not touch the same rows
 * (they all see the snapshot taken before any of them): the callers write separate tables.
 * Each write's placeholders are numbered after the previous writes' values, straight from its
 * template's strings (values are parameters, never text).
 */
export function combinedWrites(writes: readonly Sql[]): pg.QueryConfig {
  if (writes.length === 1) return { text: writes[0].text, values: writes[0].values };
  const values: unknown[] = [];
  const parts = writes.map((write, i) => {
    let text = `w${i} AS (${write.strings[0]}`;
    for (let n = 1; n < write.strings.length; n++) text += `$${values.length + n}${write.strings[n]}`;
    values.push(...write.values);
    return `${text})`;
  });
  return { text: `WITH ${parts.join(', ')} SELECT 1`, values };
}
