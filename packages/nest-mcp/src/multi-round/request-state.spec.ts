import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { McpRequestState } from './request-state.js';
import { InMemoryRequestStateStore } from '../contracts/request-state-store.js';

const call = { method: 'tools/call', name: 'wipe', argumentsHash: 'h1', callerKey: 'alice' };
const states = (ttlSeconds = 600, secret = 's'.repeat(32)) =>
  new McpRequestState(resolveMcpOptions({ requestState: { secret, ttlSeconds } }), new InMemoryRequestStateStore());

async function refused(promise: Promise<unknown>, reason: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof McpProtocolError);
    assert.equal(error.code, -32602);
    assert.match(error.message, reason);
    return true;
  });
}

describe('McpRequestState', () => {
  it('opens what it sealed for the same call, once', async () => {
    const s = states();
    const sealed = await s.seal({ step: 2 }, call);
    assert.deepEqual(await s.open(sealed, call), { step: 2 });
    await refused(s.open(sealed, call), /already used/);
  });

  it("leaves the use of a 'by-handler' state to recordUse, which records it once, as final when asked", async () => {
    const uses: Array<{ id: string; final?: boolean }> = [];
    const memory = new InMemoryRequestStateStore();
    const s = new McpRequestState(resolveMcpOptions({ requestState: { secret: 's'.repeat(32) } }), {
      consume: (id, expiresAt, options) => {
        uses.push({ id, final: options?.final });
        return memory.consume(id, expiresAt);
      },
    });
    const sealed = await s.seal({ confirm: 'wipe' }, call, { recordUse: 'by-handler' });
    const first = { ...call };
    assert.deepEqual(await s.open(sealed, first), { confirm: 'wipe' });
    assert.equal(uses.length, 0, 'opening records nothing');
    await s.recordUse(first, { final: true });
    assert.equal(uses.at(-1)!.final, true);
    await s.recordUse(first, { final: true });
    assert.equal(uses.length, 1, 'a second recordUse of the same invocation does nothing');
    const replay = { ...call };
    await s.open(sealed, replay);
    await refused(s.recordUse(replay, { final: false }), /already used/);
  });

  it('refuses it for another caller, tool, method or arguments', async () => {
    const s = states();
    const sealed = await s.seal({}, call);
    for (const other of [{ callerKey: 'bob' }, { name: 'look' }, { method: 'prompts/get' }, { argumentsHash: 'h2' }]) {
      await refused(s.open(sealed, { ...call, ...other }), /another call/);
    }
  });

  it('refuses altered, foreign-key and malformed states', async () => {
    const s = states();
    const sealed = await s.seal({ admin: false }, call);
    const [prefix, body, mac] = [sealed.slice(0, 3), sealed.slice(3, sealed.lastIndexOf('.')), sealed.slice(sealed.lastIndexOf('.') + 1)];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), p: { admin: true } })).toString(
      'base64url',
    );
    await refused(s.open(`${prefix}${forged}.${mac}`, call), /integrity/);
    await refused(states(600, 'k'.repeat(32)).open(sealed, call), /integrity/);
    for (const junk of ['', 'v1.', 'nonsense', 42, 'x'.repeat(20_000)]) await refused(s.open(junk, call), /Invalid requestState/);
  });

  it('refuses an expired state', async () => {
    const s = states(1);
    const sealed = await s.seal({}, call);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await refused(s.open(sealed, call), /expired/);
  });

  it('refuses a secret shorter than 32 bytes at boot', () => {
    assert.throws(() => resolveMcpOptions({ requestState: { secret: 'short' } }), /at least 32 bytes/);
  });
});
