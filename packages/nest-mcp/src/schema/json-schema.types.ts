/** The subset of JSON Schema 2020-12 the DTO converter emits. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

export interface JsonSchema {
  $schema?: string;
  /** One type; a list only for nullable response fields (`["string", "null"]`). */
  type?: JsonType | JsonType[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  contentEncoding?: string;
  default?: unknown;
  examples?: unknown[];
  deprecated?: boolean;
  /** Only where the layer itself offers alternatives (a background tool's data: its output or the queued job). */
  anyOf?: JsonSchema[];
  /** Input properties only: the `Mcp-Param-<name>` header a client mirrors this argument into (`@McpHeader()`). */
  'x-mcp-header'?: string;
}

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
