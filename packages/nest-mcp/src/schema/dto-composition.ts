import type { Type } from '@nestjs/common';
import { getMetadataStorage, IsBoolean, IsNumber, IsString } from 'class-validator';
import { copyTransformerMetadata } from './class-transformer-types.js';
import { MCP_HEADER_PROPERTY_METADATA, markHeaderParameter } from './dto-header-parameters.js';
import { SWAGGER_PROPERTY_LIST_METADATA, SWAGGER_PROPERTY_METADATA } from './swagger-property.schema.js';

/** One argument read by name (`@Param('id') id: string`): its name and TypeScript type. */
export interface NamedScalar {
  key: string;
  type: unknown;
  /** How the handler reads it, for error messages: `@Param('id')`. */
  label: string;
}

const SCALAR_VALIDATORS = new Map<unknown, () => PropertyDecorator>([
  [String, IsString],
  [Number, IsNumber],
  [Boolean, IsBoolean],
]);

/**
 * One DTO for a route handler whose arguments come from several parameters (`@Param()`,
 * `@Query()`, `@Body()`, `@Param('id')`): it extends the first DTO, so instances keep its
 * prototype, and carries the validators, transformations and documentation of the others, plus a
 * required scalar per named argument. Built once at bootstrap; names were checked for collisions.
 */
export function composeDto(name: string, [base, ...others]: Type<object>[], named: NamedScalar[]): Type<object> {
  const Composite: Type<object> = base ? class extends base {} : class {};
  Object.defineProperty(Composite, 'name', { value: name });
  for (const other of others) copyPropertyMetadata(other, Composite);
  for (const scalar of named) {
    const validator = SCALAR_VALIDATORS.get(scalar.type);
    if (!validator) {
      throw new Error(
        `${scalar.label} has no string, number or boolean type for the tool's schema; type the parameter ` +
          '(e.g. `id: string`), or read the whole parameter into a DTO',
      );
    }
    validator()(Composite.prototype, scalar.key);
    Reflect.defineMetadata('design:type', scalar.type, Composite.prototype, scalar.key);
  }
  return Composite;
}

/** The properties a DTO validates (its own and inherited). */
export function validatedProperties(dto: Type<unknown>): string[] {
  const storage = getMetadataStorage();
  return Object.keys(storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', true, false)));
}

function copyPropertyMetadata(from: Type<object>, to: Type<object>): void {
  const storage = getMetadataStorage();
  for (const metadata of storage.getTargetValidationMetadatas(from, '', true, false)) {
    storage.addValidationMetadata(Object.assign(Object.create(Object.getPrototypeOf(metadata)), metadata, { target: to }));
  }
  const properties = validatedProperties(from);
  copyTransformerMetadata(from, to, properties);
  const documented: string[] = [...(Reflect.getMetadata(SWAGGER_PROPERTY_LIST_METADATA, to.prototype) ?? [])];
  for (const property of properties) {
    for (const key of ['design:type', SWAGGER_PROPERTY_METADATA]) {
      const value = Reflect.getMetadata(key, from.prototype, property);
      if (value !== undefined) Reflect.defineMetadata(key, value, to.prototype, property);
    }
    if (Reflect.hasMetadata(SWAGGER_PROPERTY_METADATA, from.prototype, property)) documented.push(`:${property}`);
    const header: string | undefined = Reflect.getMetadata(MCP_HEADER_PROPERTY_METADATA, from.prototype, property);
    if (header !== undefined) markHeaderParameter(to.prototype, property, header);
  }
  Reflect.defineMetadata(SWAGGER_PROPERTY_LIST_METADATA, documented, to.prototype);
}
