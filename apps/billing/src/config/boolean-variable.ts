/**
 * The one reading of an on/off variable (`DEMO`, `DATABASE_MIGRATE`, `MCP_STREAMS`,
 * `RATE_LIMIT_DISABLED`, `AUTH_JWT_*` switches): `true`, `1`, `yes`, `on` or `false`, `0`, `no`,
 * `off`, in any case, spaces around ignored; unset or blank is the default. Anything else stops the
 * boot naming the variable, so a typo never leaves a switch in a state nobody chose.
 *
 * Not for the standard `OTEL_*` variables: the OpenTelemetry specification defines their booleans
 * itself (see `traceExportersFromEnv`).
 */
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** The accepted spellings, as the boot errors and docs/configuration.md say them. */
export const BOOLEAN_SPELLINGS = 'true/false, 1/0, yes/no, on/off, any case';

/** What a bad value is told: `DEMO must be true or false (true/false, 1/0, yes/no, on/off, any case)`. */
export function booleanRule(name: string): string {
  return `${name} must be true or false (${BOOLEAN_SPELLINGS})`;
}

/** An accepted spelling's value; undefined for anything else, blank included. */
export function parseBoolean(value: string): boolean | undefined {
  const text = value.trim().toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return undefined;
}

/**
 * An on/off setting: `fallback` when unset or blank, else one of the accepted spellings, or an error
 * naming the variable, its value and the spellings, which stops the boot
 * (`DEMO must be true or false (…), got "maybe"`).
 */
export function booleanEnv(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = parseBoolean(value);
  if (parsed === undefined) throw new Error(`${booleanRule(name)}, got ${JSON.stringify(value)}`);
  return parsed;
}
