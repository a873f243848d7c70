import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { callStateless, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import {
  CourierResources,
  DEPOT_ID,
  DispatchTools,
  LabelTools,
  MismatchedParcelController,
  MismatchedParcelResources,
  ParcelHoldController,
  ParcelTrackController,
  ReturnTools,
  UnvalidatedReturnTools,
  WeighingTools,
} from '../fixtures/boot-mistakes.fixture.js';
import { bootErrorOf as bootError } from '../support/boot-error.js';

describe('mistakes that used to boot fail the boot, naming Class.method, what is wrong and the fix', () => {
  it('1: a resource DTO property the URI template does not have (template {parcelId}, DTO `id`)', async () => {
    const message = await bootError(MismatchedParcelResources);
    assert.match(message, /MismatchedParcelResources\.parcel: /);
    assert.match(message, /reads `id` \(ParcelVariablesDto\), which the URI template courier:\/\/parcels\/\{parcelId\} does not have/);
    assert.match(message, /reads nothing of the template's \{parcelId\}/);
    assert.match(message, /Rename `id` to `parcelId` \(or the template's \{parcelId\} to \{id\}\)/);
  });

  it("1: @Param('id') on a resource whose template says {parcelId}", async () => {
    const message = await bootError(MismatchedParcelController);
    assert.match(message, /MismatchedParcelController\.parcel: reads `id` \(@Param\('id'\)\), which the URI template/);
    assert.match(message, /Rename `id` to `parcelId`/);
  });

  it('2: @ValidateNested() without @Type() on a single nested object', async () => {
    const message = await bootError(DispatchTools);
    assert.match(message, /DispatchTools\.dispatch: DispatchDto\.consignee: @ValidateNested\(\) without @Type\(\(\) => ConsigneeDto\)/);
    assert.match(message, /every call would be refused/);
    assert.match(message, /Add @Type\(\(\) => ConsigneeDto\) from class-transformer/);
  });

  it('3: a property with no decorator at all inside a decorated DTO', async () => {
    const message = await bootError(LabelTools);
    assert.match(message, /LabelTools\.printLabel: LabelDto\.tags has no decorator/);
    assert.match(message, /every LabelDto instance has it/);
    assert.match(message, /`tags` is not an accepted argument; remove it"/);
    assert.match(message, /Give it its validators \(with @IsOptional\(\)/);
  });

  it("4: @Param('parcelId') on the route :id/hold", async () => {
    const message = await bootError(ParcelHoldController);
    assert.match(message, /ParcelHoldController\.hold: @Param\('parcelId'\) names no parameter of its route POST \/v1\/parcels\/:id\/hold/);
    assert.match(message, /Read one of the route's parameters \(:id\), or rename the route's parameter to :parcelId/);
  });

  it('4: an @Param() DTO property that the route path does not have', async () => {
    const message = await bootError(ParcelTrackController);
    assert.match(message, /ParcelTrackController\.track: @Param\(\) ParcelPathDto \(its `parcelId`\) names no parameter of its route GET/);
  });

  it('6: @Type() without @ValidateNested() names @ValidateNested() as the fix', async () => {
    const message = await bootError(ReturnTools);
    assert.match(
      message,
      /ReturnTools\.requestReturn: ReturnRequestDto\.address has @Type\(\(\) => ReturnAddressDto\) but no @ValidateNested\(\)/,
    );
    assert.match(message, /Add @ValidateNested\(\)/);
  });

  it('6: the same on a property documented with @ApiProperty() only: not "without a class-validator decorator"', async () => {
    const message = await bootError(UnvalidatedReturnTools);
    assert.match(message, /UnvalidatedReturnRequestDto\.address has @Type\(\(\) => ReturnAddressDto\) but no @ValidateNested\(\)/);
    assert.doesNotMatch(message, /without a class-validator decorator/);
  });

  it('6: code compiled without decorator metadata (tsx, esbuild) says so and how to get it', async () => {
    const message = await bootError(WeighingTools);
    assert.match(message, /WeighingTools\.weigh: decorator metadata is missing/);
    assert.match(message, /emitDecoratorMetadata: tsx and esbuild never emit it/);
    assert.match(message, /SWC \(jsc\.transform\.decoratorMetadata: true/);
    assert.match(message, /Vitest 4 keeps the metadata/);
  });
});

describe('resource template variables on reads', () => {
  let t: McpTestApp;
  before(async () => {
    @Module({ imports: [McpModule.forRoot({})], providers: [CourierResources] })
    class CourierApp {}
    t = await startMcpTestApp(CourierApp);
  });
  after(() => t.close());

  const read = async (uri: string) => (await callStateless(t.mcpUrl, 'resources/read', { uri })).body;

  it('1: the variables DTO receives the validated variables as an instance', async () => {
    const body = await read(`courier://depots/${DEPOT_ID}`);
    assert.deepEqual(JSON.parse(body.result.contents[0].text), { depotId: DEPOT_ID, isDto: true });
  });

  it('1: a malformed variable is invalid params (-32602), naming it', async () => {
    const body = await read('courier://depots/not-a-uuid');
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /`depotId` must be a UUID/);
  });

  it('1: @Param(name) matching the template and untyped variables read correctly keep working', async () => {
    assert.deepEqual(JSON.parse((await read('courier://hubs/MAD-1')).result.contents[0].text), { hubCode: 'MAD-1' });
    assert.deepEqual(JSON.parse((await read('courier://drivers/d-7')).result.contents[0].text), { driverId: 'd-7' });
  });

  it('1: untyped variables that read a name the template lacks fail the read instead of answering another row', async () => {
    const body = await read('courier://vans/v-1');
    assert.equal(body.result, undefined);
    assert.equal(body.error.code, -32603);
  });
});
