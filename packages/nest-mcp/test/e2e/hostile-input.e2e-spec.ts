import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import {
  STATELESS_VERSION,
  assertPrototypesClean,
  assertWellFormedAnswer,
  envelope,
  hasPollutingKey,
  nestedJson,
  postBare,
  prototypesSnapshot,
  rawRequest,
  startMcpTestApp,
  trickle,
  type McpTestApp,
} from '@nest-mcp/core/testing';
import { ordersApp } from '../fixtures/orders.fixture.js';

/**
 * Hostile input, property-based (fast-check): whatever the envelope, headers, arguments or bytes,
 * the endpoint answers a well-formed JSON-RPC error or result, never a 5xx, never crashes, never
 * pollutes a prototype, keeps memory bounded, and gives the named cases the exact status and
 * code of docs/contract.md §1–§2. Runs are few (numRuns below) so the file stays well under a minute.
 */
const LIMIT = 256 * 1024;
const RUNS = Number(process.env.HOSTILE_RUNS ?? 100);
const METHODS = [
  'ping',
  'initialize',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'notifications/initialized',
  'notifications/cancelled',
];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The rule of `parseInboundMessage` (docs/contract.md §1.2): the status and code an envelope must get, if it is refused. */
function envelopeRefusal(value: unknown): boolean {
  if (!isPlainObject(value)) return true;
  if (value.jsonrpc !== '2.0') return true;
  if (typeof value.method !== 'string' || value.method === '') return true;
  if ('id' in value && !(typeof value.id === 'string' || (typeof value.id === 'number' && Number.isFinite(value.id)))) return true;
  return value.params !== undefined && !isPlainObject(value.params);
}

const stateless = (method: string, name?: string) => ({
  'mcp-protocol-version': STATELESS_VERSION,
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
});

const base64Name = (name: string) => `=?base64?${Buffer.from(name, 'utf8').toString('base64')}?=`;

/** A header value fetch can send unchanged: printable ASCII without surrounding blanks. */
const headerText = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x'));

/** The JSON text of a tree whose objects are lists of entries, so `__proto__` keys stay plain keys. */
type Tree = null | boolean | number | string | { array: Tree[] } | { entries: Array<[string, Tree]> };
function treeText(tree: Tree): string {
  if (tree === null || typeof tree !== 'object') return JSON.stringify(tree);
  if ('array' in tree) return `[${tree.array.map(treeText).join(',')}]`;
  return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${treeText(value)}`).join(',')}}`;
}
const { tree: treeArb } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string()),
    fc.record({ array: fc.array(tie('tree'), { maxLength: 3 }) }),
    fc.record({
      entries: fc.array(
        fc.tuple(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'polluted', 'text', 'a'),
          tie('tree'),
        ),
        { maxLength: 4 },
      ),
    }),
  ),
}));

let gc: (() => void) | undefined;
function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}

describe('hostile input: fixture app (McpModule + a DTO tool)', () => {
  let t: McpTestApp;
  let url: string;
  let options: ResolvedMcpOptions;
  const prototypes = prototypesSnapshot();

  before(async () => {
    t = await startMcpTestApp(ordersApp({ maxBodyBytes: LIMIT }));
    url = t.mcpUrl;
    options = t.app.get(MCP_OPTIONS);
  });
  after(() => t.close());

  /** After every property: the server still serves a valid request. */
  async function stillServes(): Promise<void> {
    const answer = await postBare(url, JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'ping' }));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { jsonrpc: '2.0', id: 'alive', result: {} });
  }

  it('random JSON values as the body: non-objects are 400 / -32600 with id null', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const body = assertWellFormedAnswer(await postBare(url, JSON.stringify(value)));
        if (!isPlainObject(value)) {
          assert.equal(body.error.code, -32600);
          assert.equal(body.id, null);
        }
      }),
      { numRuns: RUNS },
    );
    await stillServes();
  });

  it('envelopes with any jsonrpc, method, id and params: malformed ones are 400 / -32600, valid ones echo their id', async () => {
    const idArb = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean(), fc.jsonValue({ maxDepth: 2 }));
    const envelopeArb = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.constant('1.0'), fc.jsonValue({ maxDepth: 1 })),
        method: fc.oneof(fc.constantFrom(...METHODS), fc.string(), fc.jsonValue({ maxDepth: 1 })),
        id: idArb,
        params: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.jsonValue({ maxDepth: 2 })),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(envelopeArb, async (value) => {
        const text = JSON.stringify(value);
        const sent = JSON.parse(text) as Record<string, unknown>; // what the server reads (NaN → null, -0 → 0)
        const answer = await postBare(url, text);
        const body = assertWellFormedAnswer(answer);
        if (envelopeRefusal(sent) || hasPollutingKey(sent)) {
          assert.equal(answer.status, 400, answer.text);
          assert.equal(body.error.code, -32600);
          return;
        }
        if (body) assert.deepEqual(body.id, 'id' in sent ? sent.id : null);
      }),
      { numRuns: RUNS * 2 },
    );
    await stillServes();
  });

  it('every id type: strings and finite numbers are echoed, anything else is 400 / -32600 with id null', async () => {
    const idText = fc.oneof(
      fc.string({ unit: 'binary' }).map((s) => JSON.stringify(s)),
      fc.integer().map(String),
      fc.double().map((n) => JSON.stringify(n)),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.constantFrom(
        'null',
        'true',
        'false',
        '{}',
        '[]',
        '[1]',
        '{"a":1}',
        '1e400',
        '-1e400',
        '1.5',
        '-0',
        '0.1e1',
        '""',
        `"${'x'.repeat(10_000)}"`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(idText, async (id) => {
        const answer = await postBare(url, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
        const body = assertWellFormedAnswer(answer);
        const parsed = JSON.parse(id) as unknown;
        if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed))) {
          assert.equal(answer.status, 200);
          // Echoed as JSON writes it: the same string, the same number (-0 is written 0).
          assert.deepEqual(body, { jsonrpc: '2.0', id: JSON.parse(JSON.stringify(parsed)), result: {} });
        } else {
          assert.equal(answer.status, 400);
          assert.equal(body.error.code, -32600);
          assert.equal(body.id, null);
        }
      }),
      { numRuns: RUNS * 2 },
    );
    await stillServes();
  });

  it('Mcp-Name, raw or =?base64?…?= (unicode names): decoded before comparing; any mismatch is 400 / -32020', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.oneof(
          headerText,
          headerText.map((s) => `=?base64?${s}?=`),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(base64Name),
        ),
        async (name, otherHeader) => {
          const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: envelope() } });
          // The name's own base64 form always agrees: the call reaches the tool lookup.
          const agreed = assertWellFormedAnswer(await postBare(url, body, stateless('tools/call', base64Name(name))));
          if (name !== 'echo' && name !== 'raw_content' && name !== 'explode') {
            assert.equal(agreed.error.code, -32602);
            assert.match(agreed.error.message, /Unknown tool/);
          }
          const decoded = otherHeader.startsWith('=?base64?')
            ? Buffer.from(otherHeader.slice(9, -2), 'base64').toString('utf8')
            : otherHeader;
          if (decoded === name || otherHeader === name) return;
          const answer = await postBare(url, body, stateless('tools/call', otherHeader));
          assert.equal(answer.status, 400, answer.text);
          assert.equal(assertWellFormedAnswer(answer).error.code, -32020);
          assert.match(answer.body.error.message, /^Header mismatch: /);
        },
      ),
      { numRuns: RUNS },
    );
    await stillServes();
  });

  it('MCP-Protocol-Version and Mcp-Method: any other value gets the exact docs/contract.md §2 answer', async () => {
    await fc.assert(
      fc.asyncProperty(headerText, fc.constantFrom(...METHODS.filter((m) => !m.startsWith('notifications/'))), async (version, method) => {
        // 2026 envelope, header disagrees: -32020.
        const withEnvelope = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } });
        if (version !== STATELESS_VERSION) {
          const mismatch = await postBare(url, withEnvelope, { ...stateless('tools/list'), 'mcp-protocol-version': version });
          assert.equal(mismatch.status, 400);
          assert.equal(assertWellFormedAnswer(mismatch).error.code, -32020);
        }
        // No envelope: a 2025 version is served, 2026-07-28 is -32602, anything else -32022 with data.
        const bare = await postBare(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), { 'mcp-protocol-version': version });
        const body = assertWellFormedAnswer(bare);
        if (['2025-11-25', '2025-06-18', '2025-03-26'].includes(version)) assert.equal(bare.status, 200);
        else if (version === STATELESS_VERSION) assert.deepEqual([bare.status, body.error.code], [400, -32602]);
        else {
          assert.deepEqual([bare.status, body.error.code], [400, -32022]);
          assert.deepEqual(body.error.data, { supported: options.supportedVersions, requested: version });
        }
        // Mcp-Method must repeat the body's method.
        if (method !== 'tools/list') {
          const wrongMethod = await postBare(url, withEnvelope, stateless(method));
          assert.equal(wrongMethod.status, 400);
          assert.equal(assertWellFormedAnswer(wrongMethod).error.code, -32020);
        }
      }),
      { numRuns: RUNS },
    );
    await stillServes();
  });

  it('wrong content types are 415 / -32600; application/json with parameters is accepted', async () => {
    const contentType = fc.oneof(
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        'application/json-patch+json',
        'text/json',
        'application/*',
        '*/*',
        'APPLICATION/JSON; charset=utf-8',
        'application/json ;foo=bar',
      ),
      headerText,
    );
    await fc.assert(
      fc.asyncProperty(contentType, async (type) => {
        const answer = await postBare(url, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }), { 'content-type': type });
        const body = assertWellFormedAnswer(answer);
        if (type.split(';')[0].trim().toLowerCase() === 'application/json') {
          assert.equal(answer.status, 200);
        } else {
          assert.deepEqual([answer.status, body.error.code, body.error.message], [415, -32600, 'Content-Type must be application/json']);
        }
      }),
      { numRuns: RUNS },
    );
    const none = await rawRequest(url, { headers: { 'content-length': 2 }, chunks: ['{}'] });
    assert.equal(none.status, 415);
    await stillServes();
  });

  it('tool arguments of any shape: an isError result or -32602, never a protocol fault', async () => {
    const lineArb = fc.record(
      {
        description: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        quantity: fc.oneof(fc.integer(), fc.double(), fc.string()),
        unitPriceMinor: fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    );
    const orderArb = fc.record(
      {
        customerEmail: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue({ maxDepth: 1 })),
        currency: fc.oneof(fc.constantFrom('MXN', 'USD', 'EUR', ''), fc.jsonValue({ maxDepth: 1 })),
        dueDate: fc.oneof(fc.constant('2026-12-01'), fc.string(), fc.integer()),
        lines: fc.oneof(fc.array(lineArb, { maxLength: 60 }), fc.jsonValue({ maxDepth: 2 })),
        tags: fc.oneof(fc.array(fc.string()), fc.jsonValue({ maxDepth: 2 })),
        metadata: fc.jsonValue({ maxDepth: 3 }),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    );
    const callArb = fc.oneof(
      fc.record({ tool: fc.constant('orders_create'), args: fc.oneof(orderArb, fc.jsonValue({ maxDepth: 3 })) }),
      fc.record({
        tool: fc.constantFrom('echo', 'orders_get', 'raw_content'),
        args: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 2 })),
      }),
    );
    await fc.assert(
      fc.asyncProperty(callArb, fc.boolean(), async ({ tool, args }, modern) => {
        const params = { name: tool, arguments: args, ...(modern ? { _meta: envelope() } : {}) };
        const text = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params });
        const answer = await postBare(url, text, modern ? stateless('tools/call', tool) : {});
        const body = assertWellFormedAnswer(answer);
        if (hasPollutingKey(JSON.parse(text))) return assert.equal(answer.status, 400);
        assert.equal(answer.status, 200, answer.text);
        if (body.error) assert.equal(body.error.code, -32602);
        else assert.ok(Array.isArray(body.result.content));
      }),
      { numRuns: RUNS * 2 },
    );
    // Prompts, resources and completions with arguments of any shape: -32602 or a result.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('prompts/get', 'resources/read', 'completion/complete'),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
        fc.jsonValue({ maxDepth: 2 }),
        async (method, params, args) => {
          const answer = await postBare(
            url,
            JSON.stringify({ jsonrpc: '2.0', id: 6, method, params: { ...params, name: 'orders_follow_up', arguments: args } }),
          );
          const body = assertWellFormedAnswer(answer);
          if (hasPollutingKey(params) || hasPollutingKey(args)) return;
          assert.equal(answer.status, 200);
          if (body.error) assert.equal(body.error.code, -32602);
        },
      ),
      { numRuns: RUNS },
    );
    await stillServes();
  });

  it('__proto__ and constructor keys anywhere are 400 / -32600; prototype and other keys are inert; no prototype is touched', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, fc.constantFrom('top', 'params', 'arguments', 'meta'), async (tree, where) => {
        const inner = treeText(tree);
        const text =
          where === 'top'
            ? `{"jsonrpc":"2.0","id":7,"method":"ping","extra":${inner}}`
            : where === 'params'
              ? `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":${inner}}}`
              : where === 'arguments'
                ? `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi","more":${inner}}}}`
                : `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18","x":${inner}}}}`;
        const answer = await postBare(url, text, where === 'meta' ? { 'mcp-protocol-version': '2025-06-18' } : {});
        const body = assertWellFormedAnswer(answer);
        if (hasPollutingKey(JSON.parse(text))) {
          assert.equal(answer.status, 400);
          assert.equal(body.error.code, -32600);
          assert.match(body.error.message, /__proto__/);
        } else {
          assert.equal(answer.status, 200, answer.text);
        }
        assertPrototypesClean(prototypes);
      }),
      { numRuns: RUNS * 2 },
    );
    // The classic payloads, spelled out.
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"__proto__":{"polluted":true}}}',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\\u005f_proto__":{"polluted":true}}}',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"constructor":{"prototype":{"polluted":true}}}}',
      // class-transformer reads a nested object's own "constructor" as its class: once a -32603.
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":{"constructor":1}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"isAdmin":true}}}}',
    ]) {
      const answer = await postBare(url, text);
      assert.deepEqual([answer.status, answer.body.error.code], [400, -32600]);
    }
    assertPrototypesClean(prototypes);
    await stillServes();
  });

  it('duplicate keys: the last one wins (JSON.parse), and the routing headers must agree with it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tools/list', 'prompts/list', 'resources/list'),
        fc.constantFrom('tools/list', 'prompts/list', 'server/discover', 'ping'),
        fc.integer(),
        fc.integer(),
        async (first, last, id1, id2) => {
          const meta = JSON.stringify(envelope());
          const text = `{"jsonrpc":"2.0","id":${id1},"method":"${first}","params":{"_meta":${meta}},"method":"${last}","id":${id2}}`;
          const served = await postBare(url, text, stateless(last));
          const body = assertWellFormedAnswer(served);
          assert.equal(body.id, id2);
          if (last === 'ping') assert.deepEqual([served.status, body.error.code], [404, -32601]);
          else assert.equal(served.status, 200);
          if (first !== last) {
            const routedOnFirst = await postBare(url, text, stateless(first));
            assert.deepEqual([routedOnFirst.status, assertWellFormedAnswer(routedOnFirst).error.code], [400, -32020]);
          }
        },
      ),
      { numRuns: RUNS / 2 },
    );
    // Two names for one tools/call: Mcp-Name must be the one that runs.
    const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"explode","arguments":{"text":"x"},"name":"echo","_meta":${JSON.stringify(envelope())}}}`;
    assert.equal((await postBare(url, text, stateless('tools/call', 'explode'))).body.error.code, -32020);
    assert.equal((await postBare(url, text, stateless('tools/call', 'echo'))).body.result.isError, undefined);
    await stillServes();
  });

  it('invalid UTF-8 anywhere is 400 / -32700; valid bytes are parsed as usual', async () => {
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 24 }), fc.boolean(), async (bytes, inString) => {
        const body = inString
          ? Buffer.concat([
              Buffer.from('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'),
              bytes,
              Buffer.from('"}}}'),
            ])
          : Buffer.from(bytes);
        let valid = true;
        try {
          utf8.decode(body);
        } catch {
          valid = false;
        }
        const answer = await postBare(url, body);
        const parsed = assertWellFormedAnswer(answer);
        if (!valid) {
          assert.deepEqual(
            [answer.status, parsed.error.code, parsed.error.message],
            [400, -32700, 'Parse error: the body is not valid UTF-8'],
          );
        }
      }),
      { numRuns: RUNS },
    );
    await stillServes();
  });

  it('huge bodies: 413 exactly above the limit (declared or streamed), served at the limit', async () => {
    const tooLarge = { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request body too large (limit ${LIMIT} bytes)` } };
    const sized = (size: number) => {
      const head = '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"';
      return `${head}${'x'.repeat(size - head.length - 3)}"}}`;
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: LIMIT - 64, max: LIMIT + 64 }), fc.boolean(), async (size, declared) => {
        const body = sized(size);
        assert.equal(Buffer.byteLength(body), size);
        const answer = await rawRequest(url, {
          headers: { 'content-type': 'application/json', ...(declared ? { 'content-length': size } : { 'transfer-encoding': 'chunked' }) },
          chunks: declared ? [body] : [body.slice(0, 1000), body.slice(1000)],
        });
        if (size > LIMIT) {
          assert.equal(answer.status, 413);
          assert.deepEqual(JSON.parse(answer.text), tooLarge);
        } else {
          assert.equal(answer.status, 200, answer.text.slice(0, 200));
        }
      }),
      { numRuns: 24 },
    );
    await stillServes();
  });

  it(`deep payloads: nesting beyond ${MAX_JSON_DEPTH} levels is 400 / -32600, never a stack overflow`, async () => {
    const envelopeDepth = 2; // the body object and params
    const atLimit = `{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":${nestedJson(MAX_JSON_DEPTH - envelopeDepth, 'array')}}}`;
    assert.equal((await postBare(url, atLimit)).status, 200);
    const deepArgs = (depth: number, kind: 'array' | 'object') =>
      `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"orders_create","arguments":{"metadata":${nestedJson(depth, kind)}}}}`;
    const cases = [
      `{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":${nestedJson(MAX_JSON_DEPTH - envelopeDepth + 1, 'array')}}}`,
      deepArgs(1_000, 'object'),
      deepArgs(10_000, 'object'),
      deepArgs(10_000, 'array'),
      deepArgs(100_000, 'array'),
      `{"jsonrpc":"2.0","id":${nestedJson(10_000, 'array')},"method":"ping"}`,
      nestedJson(40_000, 'object'),
    ];
    for (const text of cases) {
      const answer = await postBare(url, text);
      assert.equal(answer.status, 400, answer.text.slice(0, 200));
      assert.deepEqual(answer.body.error, { code: -32600, message: `Invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels` });
    }
    await stillServes();
  });

  it('slow bodies: a body that does not arrive within the timeout is 408 and the connection is closed; a slow complete one is served', async () => {
    const configured = options.bodyTimeoutMs;
    options.bodyTimeoutMs = 400;
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping', params: { pad: 'x'.repeat(200) } });
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      // One byte every 50 ms: the whole body would take ~12 s.
      const trickled = await trickle(url, body, { headers, bytes: 1, everyMs: 50 });
      assert.equal(trickled.status, 408);
      assert.deepEqual(JSON.parse(trickled.text), {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Request body not received within 400 ms' },
      });
      assert.equal(trickled.headers.connection, 'close');
      assert.ok(trickled.elapsedMs >= 380 && trickled.elapsedMs < 3_000, `answered after ${trickled.elapsedMs} ms`);
      assert.ok(trickled.written < Buffer.byteLength(body));

      // Headers, then nothing at all.
      const silent = await trickle(url, body, { headers, bytes: 0, everyMs: 100 });
      assert.equal(silent.status, 408);

      // Slow but in time: served.
      const slowButComplete = await trickle(url, body, { headers, bytes: 64, everyMs: 40 });
      assert.equal(slowButComplete.status, 200, slowButComplete.text);
    } finally {
      options.bodyTimeoutMs = configured;
    }
    await stillServes();
  });

  it('keeps memory bounded over many hostile requests', async (context) => {
    const hostile = fc.sample(
      fc.oneof(
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
        treeArb.map((tree) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${treeText(tree)}}}`),
        fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
        fc.constantFrom(nestedJson(5_000, 'array'), `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'y'.repeat(200_000)}"}}`),
      ),
      400,
    );
    const round = async () => {
      for (let i = 0; i < hostile.length; i += 8) {
        await Promise.all(hostile.slice(i, i + 8).map((text) => postBare(url, text).then(assertWellFormedAnswer)));
      }
    };
    await round(); // warm-up: caches, JIT, connection pool
    collectGarbage();
    const before = process.memoryUsage();
    for (let r = 0; r < 4; r++) await round();
    collectGarbage();
    const afterRun = process.memoryUsage();
    const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    const heapGrowth = mib(afterRun.heapUsed - before.heapUsed);
    const rssGrowth = mib(afterRun.rss - before.rss);
    context.diagnostic(`heap ${heapGrowth} MiB, RSS ${rssGrowth} MiB over ${hostile.length * 4} hostile requests`);
    // 1,600 requests (some of 200 KB): a leak of even 10 KB each would show up as 16 MiB of heap.
    assert.ok(heapGrowth < 12, `heap grew by ${heapGrowth} MiB (${mib(before.heapUsed)} → ${mib(afterRun.heapUsed)})`);
    assert.ok(rssGrowth < 128, `RSS grew by ${rssGrowth} MiB (${mib(before.rss)} → ${mib(afterRun.rss)})`);
    await stillServes();
  });
});
