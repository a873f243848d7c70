import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Type } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { McpRegistry } from '@nest-mcp/core/extensions';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { post, statelessRequest } from '@nest-mcp/core/testing';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
}

interface Structured {
  name: string;
  kind: 'object' | 'array';
  nested?: Type<unknown>;
}

/** Properties a DTO declares as structured (object or array), by their metadata, not by the schema. */
function structuredProperties(dto: Type<unknown>): Structured[] {
  const storage = getMetadataStorage();
  const byProperty = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', true, false));
  return Object.entries(byProperty).flatMap(([name, metas]): Structured[] => {
    const designType = Reflect.getMetadata('design:type', dto.prototype, name);
    const isArray = designType === Array || metas.some((m) => m.name === 'isArray' || m.each);
    const isObject = metas.some((m) => m.name === 'isObject' || m.type === ValidationTypes.NESTED_VALIDATION);
    if (isArray) return [{ name, kind: 'array' }];
    if (isObject)
      return [{ name, kind: 'object', nested: typeof designType === 'function' && designType !== Object ? designType : undefined }];
    return [];
  });
}

function assertStructured(dto: Type<unknown>, schema: Schema, path: string): number {
  let checked = 0;
  for (const property of structuredProperties(dto)) {
    const actual = schema.properties?.[property.name]?.type;
    assert.equal(
      actual,
      property.kind,
      `${path}.${property.name} is declared as ${property.kind} but the schema says ${JSON.stringify(actual)}`,
    );
    checked++;
    if (property.nested) checked += assertStructured(property.nested, schema.properties![property.name], `${path}.${property.name}`);
  }
  return checked;
}

describe('tool schemas come from the DTOs', () => {
  let t: BillingTestApp;
  let tools: Array<{ name: string; inputSchema: Schema }>;
  before(async () => {
    t = await startBillingApp();
    const request = statelessRequest('tools/list');
    const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(await t.token()) });
    tools = body.result.tools;
  });
  after(() => t.close());

  it('never types as a string what a DTO declares as an object or an array', () => {
    const registry = t.app.get(McpRegistry);
    let checked = 0;
    for (const tool of tools) {
      const entry = registry.tool(tool.name)!;
      if (entry.input) checked += assertStructured(entry.input, tool.inputSchema, tool.name);
      assert.equal(tool.inputSchema.type, 'object', `${tool.name}: the root of an inputSchema is an object`);
    }
    assert.ok(tools.length >= 2);
    // The billing tools declare nested objects and arrays (invoice lines, payment evidence): they must be checked.
    assert.ok(checked >= 1, 'no structured property was found to check');
  });

  it('documents the REST routes in Swagger with the same DTO properties and required fields', async () => {
    const document = (await (await fetch(`${t.baseUrl}/docs-json`)).json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, Schema> };
    };
    const registry = t.app.get(McpRegistry);
    let compared = 0;
    for (const tool of tools) {
      const dto = registry.tool(tool.name)!.input;
      const swagger = dto ? document.components.schemas[dto.name] : undefined;
      if (!swagger) continue;
      assert.deepEqual(
        Object.keys(swagger.properties ?? {}).sort(),
        Object.keys(tool.inputSchema.properties ?? {}).sort(),
        `${tool.name}: properties`,
      );
      assert.deepEqual([...(swagger.required ?? [])].sort(), [...(tool.inputSchema.required ?? [])].sort(), `${tool.name}: required`);
      compared++;
    }
    assert.ok(compared >= 1, 'at least one tool input is a request body documented in Swagger');
    assert.ok(document.paths['/v1/customers']);
  });
});
