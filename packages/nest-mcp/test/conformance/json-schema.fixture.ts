import { Injectable } from '@nestjs/common';
import { McpTool, type McpInputJsonSchema } from '@nest-mcp/core';

/**
 * The suite's `json-schema-2020-12` scenario: a tool whose input schema uses what a DTO cannot say
 * (`$defs` with an `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`), given raw and published as it
 * is (docs/tools.md, "Raw JSON Schema"). The literal is the suite's.
 */
export const CONTACT_SCHEMA: McpInputJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

@Injectable()
export class JsonSchemaFixtures {
  @McpTool({ name: 'json_schema_2020_12_tool', description: 'Tool with JSON Schema 2020-12 features', inputSchema: CONTACT_SCHEMA })
  contact(args: Record<string, unknown>) {
    return { content: [{ type: 'text' as const, text: `Contact received: ${JSON.stringify(args)}` }] };
  }
}
