import { BadRequestException } from '@nestjs/common';

/** Keyset paging cursor: the sort key and id of the last row of the previous page, opaque to clients. */
export interface CursorPosition {
  key: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): CursorPosition | undefined {
  if (!cursor) return undefined;
  try {
    const [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof key === 'string' && typeof id === 'string') return { key, id };
  } catch {
    // fall through
  }
  throw new BadRequestException({
    statusCode: 400,
    code: 'invalid_cursor',
    field: 'cursor',
    message: 'cursor is not one this server issued: pass next_cursor from the previous page unchanged, or omit it',
  });
}
