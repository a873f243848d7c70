import { BadRequestException } from '@nestjs/common';
import { isCalendarDate } from './money.js';

/** Keyset paging cursor: the sort key and id of the last row of the previous page, opaque to clients. */
export interface CursorPosition {
  key: string;
  id: string;
}

/**
 * What the sort key of a list is: free text (a name), a calendar date (`2026-11-30`) or an
 * instant (`toISOString()`). A decoded cursor is checked against it so that a hand-made one is a
 * 400, never a database error (a non-uuid id, a NUL byte, a year Postgres cannot store).
 */
export type CursorKey = 'text' | 'date' | 'timestamp';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longer than any key this server issues (a customer name is at most a few hundred characters). */
const MAX_TEXT_KEY = 1_000;
/** Years every column type and `Date` agree on (Postgres has no year 0; ISO strings have 4 digits). */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}

/** A keyset page: the first `limit` of the `limit + 1` rows read, and the cursor after its last row when more follow. */
export function pageOf<Row extends { id: string }>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => string,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor({ key: keyOf(last), id: last.id }) : null };
}

export function decodeCursor(cursor: string | undefined, key: CursorKey = 'text'): CursorPosition | undefined {
  if (!cursor) return undefined;
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    // refused below
  }
  if (Array.isArray(position) && position.length === 2) {
    const [value, id] = position as unknown[];
    if (typeof id === 'string' && UUID.test(id) && typeof value === 'string' && isKey(value, key)) return { key: value, id };
  }
  throw new BadRequestException({
    statusCode: 400,
    code: 'invalid_cursor',
    field: 'cursor',
    message: 'cursor is not one this server issued: pass next_cursor from the previous page unchanged, or omit it',
  });
}

function isKey(value: string, key: CursorKey): boolean {
  switch (key) {
    case 'text':
      return value.length <= MAX_TEXT_KEY && !value.includes('\u0000');
    case 'date':
      return isCalendarDate(value);
    case 'timestamp': {
      const date = new Date(value);
      return inRange(date) && date.toISOString() === value;
    }
  }
}

function inRange(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= FIRST_YEAR && year <= LAST_YEAR;
}
