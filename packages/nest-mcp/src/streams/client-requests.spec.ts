import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { ClientRequests, isJsonRpcResponse } from './client-requests.js';
import type { ResponseChannel } from './response-channel.js';
import { InMemoryEventStore } from './in-process/in-memory-event.store.js';
import { InMemorySessionStore } from './in-process/in-memory-session.store.js';
import { InProcessMessageBus } from './in-process/in-process-message.bus.js';
import { McpStreamBackends } from './stream-backends.provider.js';

const options = (timeoutMs = 5_000) =>
  resolveMcpOptions({ streams: { clientRequestTimeoutMs: timeoutMs, answerTakenMs: 200 }, requestState: { secret: 's'.repeat(32) } });
const ORIGIN = { method: 'tools/call', target: 'rename' };

/** A channel that records what was sent and can refuse to stream. */
function channel(canStream = true) {
  const sent: JSONRPCRequest[] = [];
  const abort = new AbortController();
  const fake = { signal: abort.signal, request: async (r: JSONRPCRequest) => (canStream ? (sent.push(r), true) : false) };
  return { sent, abort, channel: fake as unknown as ResponseChannel };
}

function requests(timeoutMs?: number, events = new InMemoryEventStore(), bus = new InProcessMessageBus()) {
  const resolved = options(timeoutMs);
  return new ClientRequests(resolved, new McpStreamBackends(new InMemorySessionStore(), events, bus));
}

async function askedOnce(sent: JSONRPCRequest[]): Promise<string> {
  while (!sent.length) await new Promise((resolve) => setImmediate(resolve));
  return String(sent[0].id);
}

async function refused(promise: Promise<unknown>, message: RegExp) {
  await assert.rejects(promise, (error: unknown) => error instanceof McpProtocolError && message.test(error.message));
}

describe('ClientRequests', () => {
  it('resolves with the answer delivered for its id in its session', async () => {
    const r = requests();
    const { sent, channel: c } = channel();
    const asked = r.ask(c, 'session-1', ORIGIN, 'roots/list', {});
    while (!sent.length) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await r.deliver({ jsonrpc: '2.0', id: sent[0].id, result: { roots: [] } }, 'session-1'), { taken: true });
    assert.deepEqual(await asked, { roots: [] });
  });

  it('acknowledges the same answer sent again as a duplicate, while the call runs and after it; refuses another answer', async () => {
    const r = requests();
    const { sent, channel: c } = channel();
    let release!: () => void;
    const asked = r.ask(c, 'session-1', ORIGIN, 'elicitation/create', {}).then(async (result) => {
      await new Promise<void>((resolve) => (release = resolve));
      return result;
    });
    const id = await askedOnce(sent);
    const yes = { jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } };
    assert.deepEqual(await r.deliver(yes, 'session-1'), { taken: true });
    // Keys in another order are the same answer.
    const again = { jsonrpc: '2.0', id, result: { content: { confirm: true }, action: 'accept' } };
    assert.deepEqual(await r.deliver(again, 'session-1'), { taken: true, duplicate: true }, 'while the call still runs');
    release();
    assert.deepEqual(await asked, yes.result);
    assert.deepEqual(await r.deliver(yes, 'session-1'), { taken: true, duplicate: true }, 'after the call ended');
    await refused(
      r.deliver({ jsonrpc: '2.0', id, result: { action: 'decline' } }, 'session-1'),
      /already answered, and the call to rename went on with that first answer; this different answer was not used/,
    );
  });

  it('knows a duplicate on another replica: the record is in the shared event store', async () => {
    const events = new InMemoryEventStore();
    const bus = new InProcessMessageBus();
    const [onA, onB] = [requests(undefined, events, bus), requests(undefined, events, bus)];
    const { sent, channel: c } = channel();
    const asked = onA.ask(c, 'session-1', ORIGIN, 'elicitation/create', {});
    const yes = { jsonrpc: '2.0', id: await askedOnce(sent), result: { action: 'accept' } };
    assert.deepEqual(await onB.deliver(yes, 'session-1'), { taken: true });
    await asked;
    assert.deepEqual(await onA.deliver(yes, 'session-1'), { taken: true, duplicate: true });
    assert.deepEqual(await onB.deliver(yes, 'session-1'), { taken: true, duplicate: true });
  });

  it('refuses an answer to a call that stopped waiting (aborted), without reporting the call lost', async () => {
    const r = requests();
    const { sent, abort, channel: c } = channel();
    const asked = r.ask(c, 'session-1', ORIGIN, 'elicitation/create', {});
    const id = await askedOnce(sent);
    abort.abort(new Error('client gone'));
    await assert.rejects(asked, /client gone/);
    await refused(
      r.deliver({ jsonrpc: '2.0', id, result: { action: 'accept' } }, 'session-1'),
      /No call is waiting for this answer any more: the call to rename already ended without it.*call rename again/,
    );
  });

  it('says when nobody took an answer (the replica that asked died), with the call and its arguments; only the first report audits', async () => {
    const events = new InMemoryEventStore();
    // The replica that asked: the same event store, but its bus no longer hears anything (it died).
    const dead = requests(undefined, events, new InProcessMessageBus());
    const { sent, abort, channel: c } = channel();
    const origin = { ...ORIGIN, arguments: { name: 'new name', note: 'x'.repeat(40_000) } };
    void dead.ask(c, 'session-1', origin, 'elicitation/create', {}).catch(() => undefined);
    const answer = { jsonrpc: '2.0', id: await askedOnce(sent), result: { action: 'accept' } };
    const survivor = requests(undefined, events);
    const first = await survivor.deliver(answer, 'session-1');
    assert.equal(first.taken, false);
    assert.equal(first.taken === false && first.firstReport, true);
    const recorded = first.taken === false ? first.origin : undefined;
    assert.deepEqual({ method: recorded?.method, target: recorded?.target }, ORIGIN);
    assert.match(String(recorded?.arguments?.['[truncated]']), /^40\d{3} chars of JSON; the first 2000: \{"name":"new name"/, 'bounded');
    const again = await survivor.deliver(answer, 'session-1');
    assert.equal(again.taken === false && again.firstReport, false, 'the same answer again: no second report');
    abort.abort();
  });

  it('refuses an answer from another session, with an id it did not issue, or tampered with', async () => {
    const r = requests();
    const { sent, channel: c } = channel();
    const asked = r.ask(c, 'session-1', ORIGIN, 'roots/list', {});
    while (!sent.length) await new Promise((resolve) => setImmediate(resolve));
    const id = String(sent[0].id);
    await refused(r.deliver({ jsonrpc: '2.0', id, result: {} }, 'session-2'), /does not name a pending request/);
    await refused(
      r.deliver({ jsonrpc: '2.0', id: id.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')), result: {} }, 'session-1'),
      /does not name/,
    );
    await refused(r.deliver({ jsonrpc: '2.0', id: 7, result: {} }, 'session-1'), /does not name/);
    // An id issued under another secret (another deployment) is not this server's.
    await refused(
      requests().deliver({ jsonrpc: '2.0', id: id.split('.').slice(0, 3).join('.') + '.forged', result: {} }, 'session-1'),
      /does not name/,
    );
    await r.deliver({ jsonrpc: '2.0', id, error: { code: -1, message: 'User rejected' } }, 'session-1');
    await refused(asked, /The client refused roots\/list \(-1: User rejected\)/);
  });

  it('fails clearly when the client cannot be asked, does not answer in time, or the call is aborted', async () => {
    await refused(requests().ask(channel(false).channel, 's', ORIGIN, 'elicitation/create', {}), /needs an SSE answer/);
    await refused(
      requests(50).ask(channel().channel, 's', ORIGIN, 'elicitation/create', {}),
      /did not answer elicitation\/create within 50 ms/,
    );
    const { abort, channel: c } = channel();
    const asked = requests().ask(c, 's', ORIGIN, 'sampling/createMessage', {});
    abort.abort(new Error('client gone'));
    await assert.rejects(asked, /client gone/);
  });

  it('tells a JSON-RPC response from a request or notification', () => {
    assert.equal(isJsonRpcResponse({ jsonrpc: '2.0', id: 1, result: {} }), true);
    assert.equal(isJsonRpcResponse({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }), true);
    assert.equal(isJsonRpcResponse({ jsonrpc: '2.0', id: 1, method: 'ping' }), false);
    assert.equal(isJsonRpcResponse({ jsonrpc: '2.0', method: 'notifications/initialized' }), false);
  });
});
