import type { Type } from '@nestjs/common';
import { X_MCP_HEADER } from './header-parameters.js';
import type { JsonSchema } from './json-schema.types.js';

/** Per property (on the DTO's prototype): the header name `@McpHeader()` gave it. Inherited by subclasses. */
export const MCP_HEADER_PROPERTY_METADATA = 'mcp:header-parameter';
/** On the prototype: every property of the class and its parents marked with `@McpHeader()`. */
const MCP_HEADER_PROPERTY_LIST_METADATA = 'mcp:header-parameters';

/** Records `@McpHeader(name)` on one property of a DTO. */
export function markHeaderParameter(prototype: object, property: string, name: string): void {
  Reflect.defineMetadata(MCP_HEADER_PROPERTY_METADATA, name, prototype, property);
  const marked: string[] = Reflect.getMetadata(MCP_HEADER_PROPERTY_LIST_METADATA, prototype) ?? [];
  Reflect.defineMetadata(MCP_HEADER_PROPERTY_LIST_METADATA, [...new Set([...marked, property])], prototype);
}

/**
 * Publishes `x-mcp-header` on the input schema's properties marked with `@McpHeader()`. A marked
 * property the validator does not know would never be in the schema, so clients would never
 * send its header: said at boot. Which types a header may carry is checked on the published
 * schema (`headerParametersOf`), as for a tool whose schema is written by hand.
 */
export function publishHeaderParameters(dto: Type<unknown>, properties: Record<string, JsonSchema>): void {
  const marked: string[] = Reflect.getMetadata(MCP_HEADER_PROPERTY_LIST_METADATA, dto.prototype) ?? [];
  for (const property of marked) {
    const name: string = Reflect.getMetadata(MCP_HEADER_PROPERTY_METADATA, dto.prototype, property);
    if (!properties[property]) {
      throw new Error(
        `${dto.name}.${property} has @McpHeader('${name}') but no class-validator decorator, so it is not an argument of the ` +
          'tool and no client would send its header. Give it its validators (e.g. @IsString(), with @IsOptional() if it may be omitted)',
      );
    }
    properties[property] = { ...properties[property], [X_MCP_HEADER]: name };
  }
}
