import { validatedProperties } from './dto-composition.js';

const accepted = new WeakMap<Function, Set<string>>();

function acceptedBy(type: Function): Set<string> {
  let properties = accepted.get(type);
  if (!properties) accepted.set(type, (properties = new Set(validatedProperties(type as never))));
  return properties;
}

/**
 * Removes from `instance` (the result of `plainToInstance(dto, sent)`, nested instances included)
 * the properties the caller did not send and no validator accepts: a class field the DTO declares
 * without decorators is an own property of every instance (undefined, or its initializer), and
 * whitelisting would otherwise refuse it as if the caller had sent it ("`tags` is not an accepted
 * argument; remove it"). A caller is only ever told about what it sent. Returns `instance`.
 */
export function withoutUnsentProperties<T>(instance: T, sent: unknown): T {
  strip(instance, sent);
  return instance;
}

function strip(instance: unknown, sent: unknown): void {
  if (Array.isArray(instance)) {
    if (Array.isArray(sent)) instance.forEach((item, index) => strip(item, sent[index]));
    return;
  }
  if (!isObject(instance) || !isObject(sent) || instance.constructor === Object || typeof instance.constructor !== 'function') return;
  const acceptedKeys = acceptedBy(instance.constructor);
  const record = instance as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (Object.hasOwn(sent, key)) strip(record[key], (sent as Record<string, unknown>)[key]);
    else if (!acceptedKeys.has(key)) delete record[key];
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
