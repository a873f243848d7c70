import { McpProtocolError } from './mcp-protocol.error.js';

/**
 * Cursor paging of list results. The cursor is opaque to clients (base64url of the offset); a
 * cursor this server did not issue is `-32602`.
 */
export function paginate<T>(items: T[], cursor: unknown, pageSize: number): { page: T[]; nextCursor?: string } {
  const offset = cursor === undefined || cursor === null ? 0 : decodeCursor(cursor);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < items.length ? { page, nextCursor: Buffer.from(`o:${next}`).toString('base64url') } : { page };
}

function decodeCursor(cursor: unknown): number {
  const match = typeof cursor === 'string' ? /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString()) : null;
  if (!match) throw McpProtocolError.invalidParams('Invalid cursor: pass the nextCursor of the previous page unchanged');
  return Number(match[1]);
}
