/** Largest amount a field accepts: amounts are 32-bit integers of minor units. */
export const MAX_AMOUNT_MINOR = 2_000_000_000;

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** "2026-12-31" → a Date at UTC midnight (Postgres `date` columns). */
export function parseDate(value: string): Date {
  return new Date(`${value}T00:00:00.000Z`);
}

export function formatDate(value: Date): string {
  return value.toISOString().slice(0, 10);
}

/** A calendar day as "YYYY-MM-DD": a Date formatted, or a day a statement already wrote so (`to_char(…, 'YYYY-MM-DD')`) as it is. */
export function dayOf(value: Date | string): string {
  return typeof value === 'string' ? value : formatDate(value);
}

/**
 * True for a real calendar day written YYYY-MM-DD that PostgreSQL's `date` can hold: 2026-02-30 is
 * not one, nor is year 0000 (Postgres refuses it: a database error instead of a 400).
 */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false;
  const date = parseDate(value);
  return !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1 && formatDate(date) === value;
}

/** 123456 MXN → "1,234.56 MXN": for messages and prompts, never for arithmetic. */
export function formatMoney(minor: number, currency: string): string {
  return `${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}
