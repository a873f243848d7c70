import type { Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_PATH, PATH_METADATA, ROUTE_ARGS_METADATA, RouteParamtypes } from '@nestjs/common/internal';
import { RequestMethod } from '@nestjs/common';
import { validatedProperties } from '../schema/dto-composition.js';

/** `:id`, `*path` and `:"quoted name"` parameters of a path-to-regexp route path. */
export const PATH_PARAMETER = /[:*]("[^"]+"|[A-Za-z_$][\w$]*)/g;

function parametersOf(paths: unknown): string[] {
  const list = Array.isArray(paths) ? paths : [paths];
  return list
    .filter((path): path is string => typeof path === 'string')
    .flatMap((path) => [...path.matchAll(PATH_PARAMETER)].map(([, name]) => name.replace(/^"|"$/g, '')));
}

/**
 * The path parameters a controller route handler reads (`@Param('ticketId')`, or the properties
 * of an `@Param()` DTO) must be parameters of its route: over MCP the tool's input would carry
 * them and the call would work, while REST would pass undefined (or answer 400) on every request.
 * `modules` are the classes of the modules that may prefix the route (`RouterModule` paths).
 * Methods that are not routes (no `@Get()`, `@Post()`, …) have no path to check.
 */
export function assertRouteParameters(target: Type<unknown>, methodName: string, source: string, module?: Function): void {
  const method = (target.prototype as Record<string, Function>)[methodName];
  const methodPath: unknown = Reflect.getMetadata(PATH_METADATA, method);
  if (methodPath === undefined) return;
  const args: Record<string, { index: number; data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};
  const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', target.prototype, methodName) ?? [];
  const read: Array<{ name: string; label: string }> = [];
  for (const [key, { index, data }] of Object.entries(args)) {
    if (key !== `${RouteParamtypes.PARAM}:${index}`) continue;
    if (typeof data === 'string') read.push({ name: data, label: `@Param('${data}')` });
    else if (data === undefined && typeof paramTypes[index] === 'function' && paramTypes[index] !== Object) {
      const dto = paramTypes[index] as Type<unknown>;
      read.push(...validatedProperties(dto).map((name) => ({ name, label: `@Param() ${dto.name} (its \`${name}\`)` })));
    }
  }
  if (!read.length) return;

  const classPath: unknown = Reflect.getMetadata(PATH_METADATA, target);
  const modulePaths = module
    ? Reflect.getMetadataKeys(module)
        .filter((key): key is string => typeof key === 'string' && key.startsWith(MODULE_PATH))
        .map((key) => Reflect.getMetadata(key, module) as unknown)
    : [];
  const parameters = new Set([...parametersOf(classPath), ...parametersOf(methodPath), ...modulePaths.flatMap(parametersOf)]);
  const missing = read.filter(({ name }) => !parameters.has(name));
  if (!missing.length) return;

  const verb = RequestMethod[Reflect.getMetadata(METHOD_METADATA, method) as number] ?? 'the';
  const route = `${verb} /${[firstPath(classPath), firstPath(methodPath)].filter(Boolean).join('/')}`;
  const available = [...parameters];
  throw new Error(
    missing
      .map(
        ({ name, label }) =>
          `${source}: ${label} names no parameter of its route ${route}, so REST would never receive it (400, or undefined) ` +
          'while the MCP tool, whose input carries it, would work. ' +
          (available.length
            ? `Read one of the route's parameters (${available.map((p) => `:${p}`).join(', ')}), or rename the route's parameter to :${name}`
            : `Add :${name} to the route's path, or read it another way (@Query('${name}'), @Body())`),
      )
      .join('\n'),
  );
}

/** The first of a route's paths (`@Get(['a', 'b'])`), without its outer slashes; '' for none. */
export function firstPath(paths: unknown): string {
  const path = Array.isArray(paths) ? paths[0] : paths;
  return typeof path === 'string' ? path.replace(/^\/|\/$/g, '') : '';
}
