import type { Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA, RouteParamtypes } from '@nestjs/common/internal';
import type { Request } from 'express';

type Read = (request: Request) => unknown;

const SOURCES: ReadonlyArray<[RouteParamtypes, Read]> = [
  [RouteParamtypes.BODY, (request) => request.body],
  [RouteParamtypes.QUERY, (request) => request.query],
  [RouteParamtypes.PARAM, (request) => request.params],
];

/** A REST request's tool arguments, and how many of the route's parameters carry them. */
export interface RestArguments {
  /** An object, unless a whole parameter got something else (a JSON array body): that, for validation to refuse. */
  read: (request: Request) => unknown;
  /** The route's `@Body()`, `@Query()` and `@Param()` parameters, whole or by name. */
  readers: number;
}

/**
 * A route tool's arguments in a REST request, the inverse of `McpParamsFactory`: each whole
 * `@Body()`, `@Query()`, `@Param()` gives its properties, then each named `@Body('x')`,
 * `@Query('q')`, `@Param('id')` its value (a path parameter wins over a body field of its name,
 * as the route reads it). A named query or path value is text; read into a number or boolean
 * parameter it becomes one (`'5'` → 5), the type its tool input gives it (see `composeDto`).
 */
export function restArguments(target: Type<unknown>, methodName: string): RestArguments {
  const args: Record<string, { index: number; data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};
  const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', target.prototype, methodName) ?? [];
  const wholes: Read[] = [];
  const named: Array<{ key: string; read: Read; type: unknown; text: boolean }> = [];
  for (const [key, { index, data }] of Object.entries(args)) {
    const source = SOURCES.find(([type]) => key === `${type}:${index}`);
    if (!source) continue;
    const [type, read] = source;
    if (typeof data === 'string') named.push({ key: data, read, type: paramTypes[index], text: type !== RouteParamtypes.BODY });
    else if (data === undefined) wholes.push(read);
  }
  return {
    readers: wholes.length + named.length,
    read: (request) => {
      // Spread, never assigned: a body's own "__proto__" stays a property (refused as unknown), not a prototype.
      let result: Record<string, unknown> = {};
      for (const read of wholes) {
        const value = read(request);
        if (value === undefined) continue;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
        result = { ...result, ...value };
      }
      for (const { key, read, type, text } of named) {
        const value = (read(request) as Record<string, unknown> | undefined)?.[key];
        if (value !== undefined) result[key] = text ? fromText(value, type) : value;
      }
      return result;
    },
  };
}

function fromText(value: unknown, type: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (type === Number && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === Boolean && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
