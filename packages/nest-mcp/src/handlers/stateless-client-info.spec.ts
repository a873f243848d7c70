import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { Implementation } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { IN_MEMORY_CLIENT_INFO_CALLERS, InMemoryClientInfoStore, type McpClientInfoStore } from '../contracts/client-info-store.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { CLIENT_INFO_CACHE_CALLERS, CLIENT_INFO_CACHE_TTL_MS, StatelessClientInfo } from './stateless-client-info.js';

/** A request whose caller key is its `x-caller` header. */
const as = (caller?: string) => ({ headers: caller ? { 'x-caller': caller } : {} }) as unknown as Request;
const options = { callerKey: (request: Request) => request.headers['x-caller'] as string | undefined } as ResolvedMcpOptions;

class CountingStore implements McpClientInfoStore {
  readonly inner = new InMemoryClientInfoStore();
  recalls = 0;
  remember(callerKey: string, info: Implementation): Promise<void> {
    return this.inner.remember(callerKey, info);
  }
  recall(callerKey: string): Promise<Implementation | undefined> {
    this.recalls += 1;
    return this.inner.recall(callerKey);
  }
}

describe('InMemoryClientInfoStore', () => {
  it(`keeps the last ${IN_MEMORY_CLIENT_INFO_CALLERS} callers remembered: the one remembered longest ago goes first`, async () => {
    const store = new InMemoryClientInfoStore();
    for (let i = 0; i < IN_MEMORY_CLIENT_INFO_CALLERS; i++) await store.remember(`caller-${i}`, { name: `c${i}`, version: '1' });
    await store.remember('caller-0', { name: 'c0 again', version: '2' }); // remembered anew: now the newest
    await store.remember('one more', { name: 'new', version: '1' });
    assert.deepEqual(await store.recall('caller-0'), { name: 'c0 again', version: '2' });
    assert.equal(await store.recall('caller-1'), undefined, 'the oldest went');
    assert.deepEqual(await store.recall('caller-2'), { name: 'c2', version: '1' });
    assert.deepEqual(await store.recall('one more'), { name: 'new', version: '1' });
  });
});

describe('StatelessClientInfo', () => {
  let store: CountingStore;
  let clientInfo: StatelessClientInfo;
  beforeEach(() => {
    mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    store = new CountingStore();
    clientInfo = new StatelessClientInfo(options, store);
  });
  afterEach(() => mock.timers.reset());

  it(`asks the store once per caller and ${CLIENT_INFO_CACHE_TTL_MS / 1000} s, misses included; concurrent requests share one recall`, async () => {
    await store.inner.remember('alice', { name: 'Alice Desk', version: '1' });
    const [first, second] = await Promise.all([clientInfo.recall(as('alice')), clientInfo.recall(as('alice'))]);
    assert.deepEqual([first?.name, second?.name], ['Alice Desk', 'Alice Desk']);
    assert.equal(await clientInfo.recall(as('bob')), undefined);
    assert.equal(store.recalls, 2);

    await store.inner.remember('bob', { name: 'Bob Desk', version: '1' }); // told another replica
    mock.timers.tick(CLIENT_INFO_CACHE_TTL_MS - 1);
    assert.equal(await clientInfo.recall(as('bob')), undefined, 'still the cached miss');
    assert.equal(store.recalls, 2);
    mock.timers.tick(1);
    assert.equal((await clientInfo.recall(as('bob')))?.name, 'Bob Desk');
    assert.equal((await clientInfo.recall(as('alice')))?.name, 'Alice Desk');
    assert.equal(store.recalls, 4);
  });

  it('what this replica remembers it knows at once; a caller without a key is neither remembered nor recalled', async () => {
    await clientInfo.remember(as('carol'), { name: 'Carol Desk', version: '1' });
    assert.equal((await clientInfo.recall(as('carol')))?.name, 'Carol Desk');
    assert.equal((await store.inner.recall('carol'))?.name, 'Carol Desk', 'and the store has it for the others');
    await clientInfo.remember(as(), { name: 'Nobody', version: '1' });
    assert.equal(await clientInfo.recall(as()), undefined);
    assert.equal(store.recalls, 0);
  });

  it(`keeps at most ${CLIENT_INFO_CACHE_CALLERS} callers in its cache`, async () => {
    for (let i = 0; i <= CLIENT_INFO_CACHE_CALLERS; i++) await clientInfo.recall(as(`caller-${i}`));
    assert.equal(store.recalls, CLIENT_INFO_CACHE_CALLERS + 1);
    await clientInfo.recall(as(`caller-${CLIENT_INFO_CACHE_CALLERS}`));
    assert.equal(store.recalls, CLIENT_INFO_CACHE_CALLERS + 1, 'the newest is cached');
    await clientInfo.recall(as('caller-0'));
    assert.equal(store.recalls, CLIENT_INFO_CACHE_CALLERS + 2, 'the oldest went');
  });
});
