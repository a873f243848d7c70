import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Get, Injectable, Module, Param, Post, Query, type Type as ClassType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { McpModule, McpTool, RequiredScopes, useMcpTransport } from '@nest-mcp/core';
import { MCP_SCOPES_METADATA, type McpAccessPolicy } from '@nest-mcp/core/extensions';
import { callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { withRestValidation } from '../support/rest-validation.js';
import { bootErrorOf as bootError } from '../support/boot-error.js';

// --- 1. One scope declaration for REST and MCP ---------------------------------------------

@Controller('v1/tickets')
class ScopedTicketsController {
  @Post(':id/close')
  @McpTool({ description: 'Closes a ticket.', scopes: ['tickets:write'] })
  close(@Param('id') id: string) {
    return { id };
  }
}

@Controller('v1/tickets')
class DisagreeingScopesController {
  @Post(':id/close')
  @RequiredScopes('tickets:admin')
  @McpTool({ description: 'Closes a ticket.', scopes: ['tickets:write'] })
  close(@Param('id') id: string) {
    return { id };
  }
}

// --- 2. What the schema says is required is enforced ---------------------------------------

class AddressDto {
  @IsString()
  @MaxLength(120)
  street: string;
}

class ShipDto {
  @ValidateNested()
  @Type(() => AddressDto)
  address: AddressDto;

  @IsString()
  @MaxLength(120)
  note: string;
}

@Injectable()
class ShippingTools {
  @McpTool({ description: 'Ships a parcel.' })
  ship(input: ShipDto) {
    return { street: input.address.street };
  }
}

// --- 3. Route parameters --------------------------------------------------------------------

class TicketIdDto {
  @IsString()
  id: string;
}

class CloseTicketDto {
  @IsString()
  @MaxLength(200)
  reason: string;
}

class TicketPageDto {
  @IsOptional()
  @IsInt()
  @Type(() => Number)
  limit?: number;
}

@Controller('v1/tickets')
class TicketsController {
  @Get(':id')
  @McpTool({ name: 'ticket_get', description: 'Reads a ticket.' })
  get(@Param() params: TicketIdDto) {
    return { id: params.id, isDto: params instanceof TicketIdDto };
  }

  @Post(':id/close')
  @McpTool({ name: 'ticket_close', description: 'Closes a ticket.' })
  close(@Param('id') id: string, @Body() body: CloseTicketDto) {
    return { id, reason: body.reason, bodyKeys: Object.keys(body), isDto: body instanceof CloseTicketDto };
  }

  @Get(':id/comments')
  @McpTool({ name: 'ticket_comments', description: 'Lists the comments of a ticket.' })
  comments(@Param() params: TicketIdDto, @Query() page: TicketPageDto) {
    return { id: params.id, limit: page.limit ?? null, paramKeys: Object.keys(params) };
  }
}

@Controller('v1/tickets')
class CollidingController {
  @Post(':reason/close')
  @McpTool({ description: 'Closes a ticket.' })
  close(@Param('reason') reason: string, @Body() body: CloseTicketDto) {
    return { reason, body };
  }
}

@Controller('v1/tickets')
class InputWithoutParamController {
  @Post(':id/close')
  @McpTool({ description: 'Closes a ticket.', input: CloseTicketDto })
  close(@Param('id') id: string, @Body() body: CloseTicketDto) {
    return { id, body };
  }
}

// --- 4. DTOs without class-validator metadata -----------------------------------------------

class PlainDto {
  name: string;
}

class SwaggerOnlyDto {
  @ApiProperty({ description: 'A name.' })
  name: string;
}

class HalfDocumentedDto {
  @IsString()
  name: string;

  @ApiProperty({ description: 'Documented, never validated.' })
  color: string;
}

@Injectable()
class PlainDtoTools {
  @McpTool({ description: 'Takes a plain class.' })
  plain(input: PlainDto) {
    return input;
  }
}

@Injectable()
class SwaggerOnlyTools {
  @McpTool({ description: 'Takes an @ApiProperty-only class.' })
  swaggerOnly(input: SwaggerOnlyDto) {
    return input;
  }
}

@Injectable()
class HalfDocumentedTools {
  @McpTool({ description: 'Takes a half-validated class.' })
  halfDocumented(input: HalfDocumentedDto) {
    return input;
  }
}

// --- 6. Scope names are checked against the declared ones ------------------------------------

@Injectable()
class TypoScopeTools {
  @McpTool({ description: 'Reads something.', scopes: ['tickets:raed'] })
  read() {
    return {};
  }
}

@Controller('v1/typo')
class TypoRouteController {
  @Get()
  @RequiredScopes('tickets:wirte')
  list() {
    return [];
  }
}

const declaringPolicy: McpAccessPolicy = {
  canUse: () => true,
  refuse: () => new Error('refused'),
  declaredScopes: () => ['tickets:read', 'tickets:write'],
};

async function bootWithPolicy(...providers: ClassType<unknown>[]): Promise<string> {
  const controllers = providers.filter((p) => Reflect.hasMetadata('path', p));
  const plain = providers.filter((p) => !controllers.includes(p));
  // As an application gives its policy to the layer: the accessPolicy option.
  @Module({ imports: [McpModule.forRoot({ accessPolicy: { useValue: declaringPolicy } })], controllers, providers: plain })
  class PolicyApp {}
  const app = await NestFactory.create(PolicyApp, { logger: false, abortOnError: false });
  useMcpTransport(app);
  try {
    await app.init();
    return '';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await app.close().catch(() => undefined);
  }
}

describe('decorator checks at boot', () => {
  it("1: @McpTool({ scopes }) on a route is also the route's @RequiredScopes, so REST guards enforce it", () => {
    assert.deepEqual(Reflect.getMetadata(MCP_SCOPES_METADATA, ScopedTicketsController.prototype.close), ['tickets:write']);
  });

  it('1: refuses to boot when @RequiredScopes and @McpTool({ scopes }) disagree on one method', async () => {
    const message = await bootError(DisagreeingScopesController);
    assert.match(message, /DisagreeingScopesController\.close/);
    assert.match(message, /@RequiredScopes\(tickets:admin\)/);
    assert.match(message, /@McpTool\(\{ scopes: \[tickets:write\] \}\)/);
  });

  it('3: refuses to boot when a named route parameter collides with a property of the body DTO', async () => {
    const message = await bootError(CollidingController);
    assert.match(message, /CollidingController\.close/);
    assert.match(message, /"reason".*@Param\('reason'\).*@Body\(\) CloseTicketDto/);
  });

  it('3: refuses to boot when an explicit input DTO lacks a route parameter the handler reads', async () => {
    const message = await bootError(InputWithoutParamController);
    assert.match(message, /InputWithoutParamController\.close/);
    assert.match(message, /@Param\('id'\).*CloseTicketDto has no `id`/);
  });

  it('4: refuses to boot on an input DTO without class-validator decorators (plain class)', async () => {
    const message = await bootError(PlainDtoTools);
    assert.match(message, /PlainDtoTools\.plain/);
    assert.match(message, /PlainDto has no class-validator decorators/);
  });

  it('4: refuses to boot on an input DTO documented only with @ApiProperty', async () => {
    const message = await bootError(SwaggerOnlyTools);
    assert.match(message, /SwaggerOnlyDto has no class-validator decorators/);
  });

  it('4: refuses to boot on an @ApiProperty property that no validator accepts', async () => {
    const message = await bootError(HalfDocumentedTools);
    assert.match(message, /HalfDocumentedDto\.color/);
    assert.match(message, /@IsOptional\(\)|validator/);
  });

  it('6: refuses to boot on a tool scope the access policy does not declare, with the declared ones', async () => {
    const message = await bootWithPolicy(TypoScopeTools);
    assert.match(message, /TypoScopeTools\.read/);
    assert.match(message, /"tickets:raed" is not a declared scope/);
    assert.match(message, /did you mean "tickets:read"/);
    assert.match(message, /tickets:read, tickets:write/);
  });

  it('6: refuses to boot on a @RequiredScopes typo on a REST-only route', async () => {
    const message = await bootWithPolicy(TypoRouteController);
    assert.match(message, /TypoRouteController\.list/);
    assert.match(message, /"tickets:wirte" is not a declared scope/);
  });

  it('6: boots when every scope is declared', async () => {
    assert.equal(await bootWithPolicy(ScopedTicketsController), '');
  });
});

describe('decorator checks on calls', () => {
  let t: McpTestApp;
  before(async () => {
    @Module({ imports: [McpModule.forRoot({})], controllers: [TicketsController], providers: [ShippingTools] })
    class CallsApp {}
    t = await startMcpTestApp(CallsApp, { configure: withRestValidation });
  });
  after(() => t.close());

  it('2: lists a required nested object as required and refuses a call without it, saying "missing"', async () => {
    const { body: list } = await callStateless(t.mcpUrl, 'tools/list');
    const ship = list.result.tools.find((tool: { name: string }) => tool.name === 'ship');
    assert.deepEqual(ship.inputSchema.required, ['address', 'note']);

    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ship', arguments: {} });
    assert.equal(body.result.isError, true);
    const errors = envelopeOf(body).errors;
    assert.deepEqual(
      errors.map((e) => [e.field, e.message]),
      [
        ['address', '`address` is missing. Correct this argument and call ship again.'],
        ['note', '`note` is missing. Correct this argument and call ship again.'],
      ],
    );
  });

  it('2: says "missing" for a missing field of a nested object too', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ship', arguments: { address: {}, note: 'n' } });
    assert.deepEqual(
      envelopeOf(body).errors.map((e: { message: string }) => e.message),
      ['`address.street` is missing. Correct this argument and call ship again.'],
    );
  });

  it('2: answers a string where an object is expected in the same words as other type errors', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ship', arguments: { address: 'Main St 1', note: 'n' } });
    assert.deepEqual(
      envelopeOf(body).errors.map((e) => [e.field, e.message]),
      [['address', '`address` must be an object. Correct this argument and call ship again.']],
    );
  });

  it('3: a route taking @Param() DTO gets that DTO as its input schema and can be called', async () => {
    const { body: list } = await callStateless(t.mcpUrl, 'tools/list');
    const get = list.result.tools.find((tool: { name: string }) => tool.name === 'ticket_get');
    assert.deepEqual(get.inputSchema.properties, { id: { type: 'string' } });
    assert.deepEqual(get.inputSchema.required, ['id']);
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ticket_get', arguments: { id: 't-1' } });
    assert.deepEqual(envelopeOf(body).data, { id: 't-1', isDto: true });
  });

  it('3: @Param(name) and @Body() together make one input; each parameter gets its own part', async () => {
    const { body: list } = await callStateless(t.mcpUrl, 'tools/list');
    const close = list.result.tools.find((tool: { name: string }) => tool.name === 'ticket_close');
    assert.deepEqual(Object.keys(close.inputSchema.properties).sort(), ['id', 'reason']);
    assert.deepEqual([...close.inputSchema.required].sort(), ['id', 'reason']);
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ticket_close', arguments: { id: 't-2', reason: 'done' } });
    assert.deepEqual(envelopeOf(body).data, { id: 't-2', reason: 'done', bodyKeys: ['reason'], isDto: true });

    const { body: missing } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ticket_close', arguments: { reason: 'done' } });
    assert.deepEqual(
      envelopeOf(missing).errors.map((e) => e.field),
      ['id'],
    );
  });

  it('3: @Param() and @Query() DTOs together make one input', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'ticket_comments', arguments: { id: 't-3', limit: 5 } });
    assert.deepEqual(envelopeOf(body).data, { id: 't-3', limit: 5, paramKeys: ['id'] });
  });

  it('3: the same handlers still serve REST', async () => {
    const response = await fetch(`${t.baseUrl}/v1/tickets/t-4/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'r' }),
    });
    assert.deepEqual(await response.json(), { id: 't-4', reason: 'r', bodyKeys: ['reason'], isDto: true });
  });
});
