import { randomBytes } from 'node:crypto';

/**
 * A task's id: a UUID version 7 (RFC 9562), random but for its first 48 bits, the time it was
 * issued. The time is what lets a server that lost its tasks (an in-memory store, restarted) tell
 * an agent "this job was lost when the server restarted" rather than "no such job": the two call
 * for different actions (start the work again, or check the id). Written out because Node 22
 * has no `crypto.randomUUIDv7`.
 */
export function newTaskId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** When a task id was issued (epoch ms); undefined for an id this layer did not issue as a UUIDv7. */
export function issuedAtOf(id: string): number | undefined {
  return UUID_V7.test(id) ? Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : undefined;
}
