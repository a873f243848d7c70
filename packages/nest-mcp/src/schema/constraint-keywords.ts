import type { JsonSchema } from './json-schema.types.js';

type Keywords = (constraints: unknown[]) => JsonSchema;

function enumValues(enumObject: unknown): unknown[] {
  if (Array.isArray(enumObject)) return enumObject;
  const record = enumObject as Record<string, unknown>;
  // A numeric TypeScript enum maps both ways (A -> 0, "0" -> "A"): keep only the values.
  return Object.keys(record)
    .filter((key) => !/^\d+$/.test(key))
    .map((key) => record[key]);
}

function typeOfValues(values: unknown[]): JsonSchema['type'] | undefined {
  if (values.length && values.every((v) => typeof v === 'string')) return 'string';
  if (values.length && values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.length && values.every((v) => typeof v === 'number')) return 'number';
  return undefined;
}

/**
 * class-validator constraint name → JSON Schema keywords. A constraint not listed here still
 * validates calls; it only stays out of the schema (document it with `@ApiProperty`).
 */
export const CONSTRAINT_KEYWORDS: Record<string, Keywords> = {
  isString: () => ({ type: 'string' }),
  isBoolean: () => ({ type: 'boolean' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isEnum: ([entity]) => {
    const values = enumValues(entity);
    return { type: typeOfValues(values), enum: values };
  },
  isIn: ([values]) => ({ type: typeOfValues(values as unknown[]), enum: values as unknown[] }),
  equals: ([value]) => ({ const: value }),
  min: ([n]) => ({ minimum: n as number }),
  max: ([n]) => ({ maximum: n as number }),
  isPositive: () => ({ exclusiveMinimum: 0 }),
  isNegative: () => ({ exclusiveMaximum: 0 }),
  isDivisibleBy: ([n]) => ({ multipleOf: n as number }),
  minLength: ([n]) => ({ type: 'string', minLength: n as number }),
  maxLength: ([n]) => ({ type: 'string', maxLength: n as number }),
  isLength: ([min, max]) => ({
    type: 'string',
    minLength: min as number,
    ...(typeof max === 'number' ? { maxLength: max } : {}),
  }),
  isNotEmpty: () => ({ minLength: 1 }),
  matches: ([pattern]) => ({ type: 'string', pattern: pattern instanceof RegExp ? pattern.source : String(pattern) }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  isUuid: () => ({ type: 'string', format: 'uuid' }),
  isUrl: () => ({ type: 'string', format: 'uri' }),
  isIso8601: () => ({ type: 'string', format: 'date-time' }),
  isDateString: () => ({ type: 'string', format: 'date-time' }),
  isDate: () => ({ type: 'string', format: 'date-time' }),
  isBase64: () => ({ type: 'string', contentEncoding: 'base64' }),
  isMimeType: () => ({ type: 'string', pattern: '^[\\w.+-]+/[\\w.+-]+$' }),
  isCurrency: () => ({ type: 'string' }),
  isISO4217CurrencyCode: () => ({ type: 'string', pattern: '^[A-Z]{3}$' }),
  isAlphanumeric: () => ({ type: 'string', pattern: '^[A-Za-z0-9]*$' }),
  arrayMinSize: ([n]) => ({ type: 'array', minItems: n as number }),
  arrayMaxSize: ([n]) => ({ type: 'array', maxItems: n as number }),
  arrayNotEmpty: () => ({ type: 'array', minItems: 1 }),
  arrayUnique: () => ({ type: 'array', uniqueItems: true }),
};

/** Keywords that make sense only on one JSON type: dropped when the property turns out to be another. */
export const STRING_ONLY_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding'] as const;
