import { BadRequestException } from '@nestjs/common';
import { isCalendarDate } from './money.js';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longer than any key this server issues (a customer name is at most a few hundred characters). */
const MAX_TEXT_KEY = 1_000;
/** Years every column type and `Date` agree on (Postgres has no year 0; ISO strings have 4 digits). */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;
export function encodeCursor(position) {
    return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}
export function decodeCursor(cursor, key = 'text') {
    if (!cursor)
        return undefined;
    let position;
    try {
        position = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    }
    catch {
        // refused below
    }
    if (Array.isArray(position) && position.length === 2) {
        const [value, id] = position;
        if (typeof id === 'string' && UUID.test(id) && typeof value === 'string' && isKey(value, key))
            return { key: value, id };
    }
    throw new BadRequestException({
        statusCode: 400,
        code: 'invalid_cursor',
        field: 'cursor',
        message: 'cursor is not one this server issued: pass next_cursor from the previous page unchanged, or omit it',
    });
}
function isKey(value, key) {
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
function inRange(date) {
    const year = date.getUTCFullYear();
    return !Number.isNaN(date.getTime()) && year >= FIRST_YEAR && year <= LAST_YEAR;
}
//# sourceMappingURL=cursor.js.map