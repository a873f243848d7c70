import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plainToInstance, Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { withoutUnsentProperties } from './unsent-properties.js';

class StopDto {
  @IsString()
  city: string;

  // No decorator: an own property of every instance (useDefineForClassFields).
  note?: string;
}

class RouteDto {
  @IsString()
  name: string;

  @IsOptional()
  @IsString()
  driver?: string;

  @ValidateNested({ each: true })
  @Type(() => StopDto)
  stops: StopDto[];

  labels: string[] = [];
}

describe('withoutUnsentProperties', () => {
  it('drops the undecorated fields a caller did not send, nested ones included, so whitelisting never reports them', () => {
    const sent = { name: 'r1', stops: [{ city: 'Lyon' }] };
    const instance = withoutUnsentProperties(plainToInstance(RouteDto, sent), sent);
    assert.ok(Object.hasOwn(new RouteDto(), 'labels'));
    assert.ok(!Object.hasOwn(instance, 'labels'));
    assert.ok(!Object.hasOwn(instance.stops[0], 'note'));
    assert.ok(instance.stops[0] instanceof StopDto);
    // Validated fields stay as the class left them.
    assert.ok(Object.hasOwn(instance, 'driver'));
  });

  it('keeps what the caller sent, accepted or not, for the validator to judge', () => {
    const sent = { name: 'r1', stops: [{ city: 'Lyon', note: 'x' }], labels: ['a'] };
    const instance = withoutUnsentProperties(plainToInstance(RouteDto, sent), sent);
    assert.deepEqual(instance.labels, ['a']);
    assert.equal(instance.stops[0].note, 'x');
  });
});
