import type { Type } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
import { declaredNestedType, nestedTypeProperties } from './class-transformer-types.js';
import { CONSTRAINT_KEYWORDS, STRING_ONLY_KEYWORDS } from './constraint-keywords.js';
import { publishHeaderParameters } from './dto-header-parameters.js';
import type { JsonSchema } from './json-schema.types.js';
import { swaggerPropertyNames, swaggerPropertyOf, swaggerSchema, type SwaggerProperty } from './swagger-property.schema.js';

export interface DtoSchemaOptions {
  /**
   * `input`: exactly the properties the validator accepts, and `additionalProperties: false`
   * when it refuses others (`closed`). `output`: also properties documented only with
   * `@ApiProperty()`, since response DTOs seldom carry validators.
   */
  mode: 'input' | 'output';
  closed?: boolean;
}

/**
 * Builds the JSON Schema (2020-12) of a class-validator DTO: the same metadata that validates a
 * call describes it, so the schema a client sees cannot drift from the checks the server runs.
 * Called once per DTO at bootstrap.
 */
export function dtoToJsonSchema(dto: Type<unknown>, options: DtoSchemaOptions, stack: Type<unknown>[] = []): JsonSchema {
  if (stack.includes(dto)) {
    throw new Error(`DTO ${[...stack, dto].map((t) => t.name).join(' -> ')} is recursive; MCP schemas must be finite`);
  }
  const storage = getMetadataStorage();
  const byProperty = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', true, false));
  if (options.mode === 'input') assertValidatable(dto, byProperty);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, metadatas] of Object.entries(byProperty)) {
    properties[property] = propertySchema(dto, property, metadatas, options, [...stack, dto]);
    if (!metadatas.some(isOptionalMarker)) required.push(property);
  }
  if (options.mode === 'input') publishHeaderParameters(dto, properties);
  if (options.mode === 'output') {
    for (const property of swaggerPropertyNames(dto)) {
      if (properties[property]) continue;
      const meta = swaggerPropertyOf(dto, property) ?? {};
      const designType = Reflect.getMetadata('design:type', dto.prototype, property);
      const schema = swaggerSchema(meta, designType, (nested) => dtoToJsonSchema(nested, options, [...stack, dto]));
      properties[property] = applySwagger(schema, meta);
      if (meta.required !== false) required.push(property);
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(options.mode === 'input' && options.closed ? { additionalProperties: false } : {}),
  };
}

/**
 * An input DTO the validator cannot check would refuse every call ("an unknown value was passed
 * to the validate function", "`x` is not an accepted argument") or silently drop a documented
 * property: say so at boot instead.
 */
function assertValidatable(dto: Type<unknown>, byProperty: Record<string, ValidationMetadata[]>): void {
  const validated = Object.keys(byProperty);
  const unnested = [...nestedTypeProperties(dto)].filter(
    ([property]) => !byProperty[property]?.some((metadata) => metadata.type === ValidationTypes.NESTED_VALIDATION),
  );
  if (unnested.length) {
    throw new Error(
      unnested
        .map(
          ([property, type]) =>
            `${dto.name}.${property} has @Type(() => ${type.name}) but no @ValidateNested(), so the rules of ${type.name} would ` +
            'never run (and, with no other validator, every call passing it would be refused). Add @ValidateNested() ' +
            '(@ValidateNested({ each: true }) for an array; with @IsOptional() if it may be omitted)',
        )
        .join('\n'),
    );
  }
  if (!validated.length) {
    throw new Error(
      `${dto.name} has no class-validator decorators, so every call would be refused. Give each property its ` +
        'validators (@IsString(), @IsInt(), @ValidateNested() with @Type(() => Nested), @IsOptional() for optional ones); ' +
        '@ApiProperty() documents a property but does not validate it',
    );
  }
  const unvalidated = swaggerPropertyNames(dto).filter((property) => !validated.includes(property));
  if (unvalidated.length) {
    throw new Error(
      `${unvalidated.map((property) => `${dto.name}.${property}`).join(', ')}: documented with @ApiProperty() but without a ` +
        'class-validator decorator, so calls that pass it would be refused. Add its validators (with @IsOptional() if it may be omitted), or remove it',
    );
  }
  const undecorated = instanceFields(dto).filter((property) => !validated.includes(property));
  if (undecorated.length) {
    throw new Error(
      undecorated
        .map(
          (property) =>
            `${dto.name}.${property} has no decorator, yet every ${dto.name} instance has it (a class field is defined on ` +
            `each instance, undefined until set): no validator accepts it, so the schema leaves it out and a caller ` +
            `passing it is told "\`${property}\` is not an accepted argument; remove it". Give it its validators ` +
            '(with @IsOptional() if it may be omitted, e.g. @IsOptional() @IsString({ each: true }) for a string[]), or remove the property',
        )
        .join('\n'),
    );
  }
}

/**
 * The fields a new instance of `dto` has of its own: every declared class field with
 * `useDefineForClassFields` (SWC, tsc targeting ES2022+), initialized ones otherwise. A DTO whose
 * constructor needs arguments is not inspected.
 */
function instanceFields(dto: Type<unknown>): string[] {
  try {
    return Object.keys(new (dto as new () => object)());
  } catch {
    return [];
  }
}

function isOptionalMarker(metadata: ValidationMetadata): boolean {
  return metadata.type === ValidationTypes.CONDITIONAL_VALIDATION;
}

function propertySchema(
  dto: Type<unknown>,
  property: string,
  metadatas: ValidationMetadata[],
  options: DtoSchemaOptions,
  stack: Type<unknown>[],
): JsonSchema {
  const designType: unknown = Reflect.getMetadata('design:type', dto.prototype, property);
  let schema: JsonSchema = designTypeSchema(designType);
  let items: JsonSchema | undefined;
  let nested: Type<unknown> | undefined;

  for (const metadata of metadatas) {
    if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
      nested = nestedType(dto, property, designType, options.mode);
      if (metadata.each) schema = { ...schema, type: 'array' };
      continue;
    }
    const keywords = metadata.name ? CONSTRAINT_KEYWORDS[metadata.name] : undefined;
    if (!keywords) continue;
    const produced = stripUndefined(keywords(metadata.constraints ?? []));
    if (metadata.each) {
      items = { ...items, ...produced };
      schema = { ...schema, type: 'array' };
    } else {
      schema = { ...schema, ...produced, type: produced.type === undefined ? schema.type : mergeType(schema.type, produced.type) };
    }
  }

  if (nested) {
    const nestedSchema = dtoToJsonSchema(nested, options, stack);
    if (schema.type === 'array') items = { ...nestedSchema, ...items, type: 'object' };
    else schema = { ...nestedSchema, ...schema, type: 'object', properties: nestedSchema.properties };
  }
  if (schema.type === 'array') schema.items = finishScalar(items ?? {});

  return applySwagger(finishScalar(schema), swaggerPropertyOf(dto, property));
}

/** `@IsInt()` on a `number` property says integer, not number; otherwise the constraint wins. */
function mergeType(current: JsonSchema['type'], produced: JsonSchema['type']): JsonSchema['type'] {
  if (current === 'integer' && produced === 'number') return 'integer';
  if (current === 'array' && produced !== 'array') return 'array';
  return produced;
}

function designTypeSchema(designType: unknown): JsonSchema {
  switch (designType) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Array:
      return { type: 'array' };
    case Date:
      return { type: 'string', format: 'date-time' };
    default:
      return {};
  }
}

const NOT_NESTED: unknown[] = [Array, Object, String, Number, Boolean, Date];

/**
 * The nested DTO of a `@ValidateNested()` property. An input needs `@Type(() => X)` even on a
 * single object whose TypeScript type names the class: class-transformer instantiates nested
 * objects only from `@Type`, and class-validator refuses a plain object where it expects one
 * ("`contact.undefined`: an unknown value was passed to the validate function") on every call.
 */
function nestedType(dto: Type<unknown>, property: string, designType: unknown, mode: DtoSchemaOptions['mode']): Type<unknown> {
  const declared = declaredNestedType(dto, property);
  const named = typeof designType === 'function' && !NOT_NESTED.includes(designType) ? designType.name : 'NestedDto';
  if (declared === undefined && mode === 'input') {
    throw new Error(
      `${dto.name}.${property}: @ValidateNested() without @Type(() => ${named}), so class-transformer would leave the ` +
        `object plain and every call would be refused ("\`${property}.undefined\`: an unknown value was passed to the ` +
        `validate function"). Add @Type(() => ${named}) from class-transformer`,
    );
  }
  const resolved = declared ?? designType;
  if (typeof resolved !== 'function' || NOT_NESTED.includes(resolved)) {
    throw new Error(`${dto.name}.${property}: @ValidateNested() needs @Type(() => NestedDto) to describe the nested object`);
  }
  return resolved as Type<unknown>;
}

/** Drops keywords that do not apply to the final type (e.g. `minLength` from `@IsNotEmpty()` on a number). */
function finishScalar(schema: JsonSchema): JsonSchema {
  if (schema.type && schema.type !== 'string') {
    for (const keyword of STRING_ONLY_KEYWORDS) delete schema[keyword];
  }
  return schema;
}

function applySwagger(schema: JsonSchema, swagger: SwaggerProperty | undefined): JsonSchema {
  if (!swagger) return schema;
  const result: JsonSchema = { ...schema };
  if (swagger.title) result.title = swagger.title;
  if (swagger.description) result.description = swagger.description;
  if (swagger.format && result.type === 'string') result.format = swagger.format;
  if (swagger.example !== undefined) result.examples = [swagger.example];
  if (swagger.default !== undefined) result.default = swagger.default;
  if (swagger.deprecated) result.deprecated = true;
  return result;
}

function stripUndefined(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
}
