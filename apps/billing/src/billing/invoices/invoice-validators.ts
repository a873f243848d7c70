import { applyDecorators } from '@nestjs/common';
import { Matches, registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { DATE_PATTERN, formatDate, isCalendarDate } from '../common/money.js';

export { isCalendarDate };

/**
 * Array size bounds that stay silent when the value is not an array at all (`@IsArray()` says so,
 * once, instead of three messages about one mistake). Registered under class-validator's own
 * names so the JSON Schema still gets `minItems` / `maxItems`.
 */
export function ArraySize(min: number, max: number, noun: string): PropertyDecorator {
  const bound =
    (name: 'arrayMinSize' | 'arrayMaxSize', limit: number, ok: (length: number) => boolean, message: string) =>
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: String(propertyName),
        constraints: [limit],
        options: { message },
        validator: { validate: (value: unknown) => !Array.isArray(value) || ok(value.length) },
      });
  return applyDecorators(
    bound('arrayMinSize', min, (length) => length >= min, `$property must contain at least ${min} ${noun}`),
    bound('arrayMaxSize', max, (length) => length <= max, `$property must contain at most ${max} ${noun}; split them over several calls`),
  );
}

/**
 * A date argument, YYYY-MM-DD. `@Matches` gives the JSON Schema its `pattern` and the format
 * message; the calendar check (only once the format is right, so one message per mistake) refuses
 * days that do not exist.
 */
export function IsIsoDate(options: ValidationOptions = {}): PropertyDecorator {
  return applyDecorators(
    Matches(DATE_PATTERN, {
      ...options,
      message: '$property must be a date in YYYY-MM-DD format, e.g. 2026-03-31; reformat it',
    }),
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'isCalendarDate',
        target: target.constructor,
        propertyName: String(propertyName),
        options: { ...options, message: '$property is not a real calendar day ($value); use an existing date such as 2026-03-31' },
        validator: {
          validate: (value: unknown) => typeof value !== 'string' || !DATE_PATTERN.test(value) || isCalendarDate(value),
        },
      }),
  );
}

/**
 * This date must be on or after another date argument of the same object; with `todayWhenMissing`
 * the other one defaults to today (UTC) when absent. Skipped while either date is malformed: the
 * format message says what to fix first.
 */
export function IsOnOrAfter(other: string, options: { todayWhenMissing?: boolean } & ValidationOptions = {}): PropertyDecorator {
  const { todayWhenMissing, ...validationOptions } = options;
  const reference = (args: ValidationArguments): unknown => {
    const value = (args.object as Record<string, unknown>)[other];
    return value === undefined && todayWhenMissing ? formatDate(new Date()) : value;
  };
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isOnOrAfter',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [other],
      options: {
        ...validationOptions,
        message: (args: ValidationArguments) => {
          const ref = reference(args);
          const given =
            (args.object as Record<string, unknown>)[other] === undefined
              ? `today (${String(ref)}, the default ${other})`
              : `${other} (${String(ref)})`;
          return `${args.property} (${String(args.value)}) must be on or after ${given}; use a later ${args.property} or an earlier ${other}`;
        },
      },
      validator: {
        validate: (value: unknown, args: ValidationArguments) => {
          const ref = reference(args);
          if (!isCalendarDate(value) || !isCalendarDate(ref)) return true;
          return value >= ref;
        },
      },
    });
}
