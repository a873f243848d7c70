import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issuedAtOf, newTaskId } from './task-id.js';

describe('task ids (UUIDv7)', () => {
  it('are version-7, variant-1 UUIDs that carry the time they were issued', () => {
    const at = Date.UTC(2026, 11, 3, 12, 0, 0, 123);
    const id = newTaskId(at);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(issuedAtOf(id), at);
  });

  it('differ when issued in the same millisecond', () => {
    const at = Date.now();
    assert.notEqual(newTaskId(at), newTaskId(at));
  });

  it('tell no time for a UUID of another version (a task created before ids carried one)', () => {
    assert.equal(issuedAtOf('0b8f2f7e-3c1a-4d5e-9f00-1a2b3c4d5e6f'), undefined);
    assert.equal(issuedAtOf('not-a-uuid'), undefined);
  });
});
