import type { Type } from '@nestjs/common';
import type { TemplateVariablesOnly } from './template-variables.view.js';
import { ROUTE_ARGS_METADATA, RouteParamtypes } from '@nestjs/common/internal';
import { composeDto, validatedProperties, type NamedScalar } from '../schema/dto-composition.js';

/** The route parameter kinds that carry a tool's arguments. */
export type ArgumentSource = 'body' | 'query' | 'param';

const SOURCES: ReadonlyArray<[ArgumentSource, RouteParamtypes, string]> = [
  ['body', RouteParamtypes.BODY, '@Body'],
  ['query', RouteParamtypes.QUERY, '@Query'],
  ['param', RouteParamtypes.PARAM, '@Param'],
];

/** How a validated input is handed to a route handler's parameters. */
export interface ArgumentSlices {
  /** Arguments read one by one (`@Param('id')`, `@Query('q')`): a whole `@Body()` without its own slice does not get them again. */
  named: string[];
  /** Composed inputs: the DTO and properties of each whole `@Body()` / `@Query()` / `@Param()`. */
  whole: Partial<Record<ArgumentSource, { dto: Type<object>; keys: string[] }>>;
  /** A resource method that reads its variables with no DTO: the names it may read (see `templateVariablesView`). */
  onlyVariables?: TemplateVariablesOnly;
}

export interface ToolInput {
  /** Validates the call and is its `inputSchema`; undefined when the method takes no input. */
  dto?: Type<object>;
  slices: ArgumentSlices;
  /** How the handler reads each property of `dto`, for error messages: `@Param('id')`, `@Body() CloseDto`, `CloseDto`. */
  readers?: Record<string, string>;
}

const PRIMITIVES: unknown[] = [String, Number, Boolean, Object, Array, Date, Function, Promise];

/**
 * A tool's input, decided once at bootstrap (`source` = `Class.method`, for errors):
 * - `explicit` (the decorator's `input`/`args`): used as is; every argument the handler reads by
 *   name must be one of its properties;
 * - a provider method: the type of its first parameter;
 * - a route handler: its `@Body()`, `@Query()` and `@Param()` DTOs and named parameters together,
 *   one DTO when there is only one; a name claimed twice fails the boot.
 */
export function resolveToolInput(target: Type<unknown>, methodName: string, source: string, explicit?: Type<unknown>): ToolInput {
  const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', target.prototype, methodName) ?? [];
  const args: Record<string, { index: number; data?: unknown }> | undefined = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName);
  const slices: ArgumentSlices = { named: [], whole: {} };
  if (!args) {
    const dto = explicit ?? paramTypes[0];
    return dto === undefined ? { slices } : withReaders({ dto: asDto(dto, source, explicit ? '`input`' : 'its first parameter'), slices });
  }

  const wholes: Array<{ source: ArgumentSource; type: unknown; label: string }> = [];
  const named: Array<NamedScalar & { source: ArgumentSource }> = [];
  for (const [key, { index, data }] of Object.entries(args)) {
    const kind = SOURCES.find(([, type]) => key === `${type}:${index}`);
    if (!kind) continue;
    const [argumentSource, , decorator] = kind;
    if (typeof data === 'string') {
      named.push({ key: data, type: paramTypes[index], label: `${decorator}('${data}')`, source: argumentSource });
    } else if (data === undefined) {
      wholes.push({ source: argumentSource, type: paramTypes[index], label: `${decorator}() ${nameOf(paramTypes[index])}` });
    }
  }
  // A whole @Body() keeps a field also read with @Body('field'): it is part of the body.
  slices.named = named.filter((n) => n.source !== 'body').map((n) => n.key);

  if (explicit) {
    const dto = asDto(explicit, source, '`input`');
    const accepted = validatedProperties(dto);
    const absent = named.find((n) => !accepted.includes(n.key));
    if (absent) {
      throw new Error(
        `${source}: the handler reads ${absent.label}, but its input ${dto.name} has no \`${absent.key}\`, so no call could ` +
          `reach it. Add \`${absent.key}\` to ${dto.name}, or drop \`input\` and let the route's parameters make the input`,
      );
    }
    return withReaders({ dto, slices }, named);
  }
  if (!wholes.length && !named.length) return { slices };
  const dtos = wholes.map((whole) => ({ ...whole, dto: asDto(whole.type, source, whole.label) }));
  if (dtos.length === 1 && !named.length) return withReaders({ dto: dtos[0].dto, slices }, [], dtos[0].label);

  const owners = new Map<string, string>();
  const claim = (key: string, label: string) => {
    const existing = owners.get(key);
    if (existing) {
      throw new Error(
        `${source}: "${key}" is read both by ${existing} and by ${label}; a tool has one argument per name. ` +
          'Rename one of them, or give the decorator one `input` DTO',
      );
    }
    owners.set(key, label);
  };
  for (const n of named) claim(n.key, n.label);
  for (const whole of dtos) {
    const keys = validatedProperties(whole.dto);
    for (const key of keys) claim(key, whole.label);
    slices.whole[whole.source] = { dto: whole.dto, keys };
  }
  // The body's DTO (else the query's) is the base: its instances are what REST hands the handler.
  const ordered = SOURCES.flatMap(([kind]) => dtos.filter((w) => w.source === kind).map((w) => w.dto));
  const dto = withSource(source, () => composeDto(`${target.name}_${methodName}_Input`, ordered, named));
  return { dto, slices, readers: Object.fromEntries(owners) };
}

/** `input` with `readers`: named parameters by their decorator, the other properties by `label` (default: the DTO's name). */
function withReaders(input: ToolInput & { dto: Type<object> }, named: NamedScalar[] = [], label = input.dto.name): ToolInput {
  const readers = Object.fromEntries(validatedProperties(input.dto).map((key) => [key, label]));
  for (const n of named) readers[n.key] = n.label;
  return { ...input, readers };
}

/**
 * A resource's input: the variables of its URI template (none for a fixed URI), which must be
 * exactly what the method reads. The DTO is, as for a tool, the decorator's `input`, the route's
 * `@Param('id')` / `@Param()` DTO, or a provider method's first parameter when it is a class; it
 * validates the variables on each read. A property the template lacks would always be undefined
 * (and `where: { id: undefined }` matches any row), so both directions fail the boot. A provider
 * method whose first parameter has no class (`variables: { id: string }`) has no DTO: the
 * resources handler then refuses, at the read, any variable the template does not have.
 */
export function resolveResourceInput(
  target: Type<unknown>,
  methodName: string,
  source: string,
  uri: string,
  variables: readonly string[],
  explicit?: Type<unknown>,
): ToolInput {
  const hasRouteArgs = Reflect.hasMetadata(ROUTE_ARGS_METADATA, target, methodName);
  const first: unknown = (Reflect.getMetadata('design:paramtypes', target.prototype, methodName) ?? [])[0];
  const untyped = !explicit && !hasRouteArgs && (first === undefined || first === Object);
  const input: ToolInput = untyped
    ? { slices: { named: [], whole: {}, onlyVariables: { source, uriTemplate: uri, names: variables } } }
    : resolveToolInput(target, methodName, source, explicit);
  if (!input.dto) return input;
  const properties = validatedProperties(input.dto);
  const extra = properties.filter((property) => !variables.includes(property));
  const unread = variables.filter((variable) => !properties.includes(variable));
  if (!extra.length && !unread.length) return input;
  const problems = [
    ...extra.map(
      (property) =>
        `reads \`${property}\` (${input.readers?.[property] ?? input.dto!.name}), which the URI template ${uri} does not have, ` +
        'so it would always be undefined (and a query on it would match any row)',
    ),
    ...unread.map((variable) => `reads nothing of the template's {${variable}}`),
  ];
  const fix =
    extra.length === 1 && unread.length === 1
      ? `Rename \`${extra[0]}\` to \`${unread[0]}\` (or the template's {${unread[0]}} to {${extra[0]}})`
      : `Make what the method reads exactly the template's variables (${variables.map((v) => `{${v}}`).join(', ') || 'none'})`;
  throw new Error(`${source}: ${problems.join('; ')}. ${fix}: a resource's input is the variables of its URI template`);
}

function asDto(candidate: unknown, source: string, what: string): Type<object> {
  if (typeof candidate !== 'function' || PRIMITIVES.includes(candidate)) {
    throw new Error(
      `${source}: ${what} is not a DTO class; give it a class-validator DTO type, or give the decorator \`input\` (or \`args\`)`,
    );
  }
  return candidate as Type<object>;
}

function nameOf(type: unknown): string {
  return typeof type === 'function' ? type.name : String(type);
}

function withSource<T>(source: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
}
