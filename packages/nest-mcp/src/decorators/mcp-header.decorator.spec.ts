import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { composeDto } from '../schema/dto-composition.js';
import { dtoToJsonSchema } from '../schema/dto-json-schema.factory.js';
import { McpHeader } from './mcp-header.decorator.js';

class ScopedDto {
  @McpHeader('Workspace-Id')
  @IsOptional()
  @IsString()
  workspace_id?: string;
}

class CreateDto extends ScopedDto {
  @IsString()
  name!: string;

  @McpHeader('Priority')
  @IsInt()
  priority!: number;
}

class PageDto {
  @McpHeader('Page')
  @IsInt()
  page!: number;
}

describe('@McpHeader', () => {
  it('publishes x-mcp-header on the property in input schemas, inherited by subclasses', () => {
    const schema = dtoToJsonSchema(CreateDto, { mode: 'input' });
    assert.deepEqual(schema.properties?.workspace_id, { type: 'string', 'x-mcp-header': 'Workspace-Id' });
    assert.deepEqual(schema.properties?.priority, { type: 'integer', 'x-mcp-header': 'Priority' });
    assert.equal(schema.properties?.name?.['x-mcp-header'], undefined);
    assert.equal(dtoToJsonSchema(ScopedDto, { mode: 'input' }).properties?.priority, undefined);
  });

  it('leaves output schemas alone', () => {
    assert.equal(dtoToJsonSchema(ScopedDto, { mode: 'output' }).properties?.workspace_id?.['x-mcp-header'], undefined);
  });

  it('survives composing a route handler DTO from several parameters', () => {
    const composite = composeDto('Composite', [ScopedDto, PageDto], []);
    const schema = dtoToJsonSchema(composite, { mode: 'input' });
    assert.equal(schema.properties?.workspace_id?.['x-mcp-header'], 'Workspace-Id');
    assert.equal(schema.properties?.page?.['x-mcp-header'], 'Page');
  });

  it('fails the boot on a marked property without validators', () => {
    // A constructor that needs its argument: the factory's check of undecorated instance fields stays out of the way.
    class Unvalidated {
      @IsString()
      name!: string;

      @McpHeader('Region')
      region?: string;

      constructor(required: { name: string }) {
        this.name = required.name;
      }
    }
    assert.throws(
      () => dtoToJsonSchema(Unvalidated, { mode: 'input' }),
      /Unvalidated\.region has @McpHeader\('Region'\) but no class-validator decorator/,
    );
  });

  it('refuses a name that is not an HTTP token where it is written', () => {
    for (const name of ['', 'My Region', 'Region:Primary', 'Région']) {
      assert.throws(() => McpHeader(name), /not a header name/);
    }
  });
});
