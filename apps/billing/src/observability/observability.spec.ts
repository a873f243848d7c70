import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactText, redactValue } from './log-redaction.js';
import { ObservabilityLogger, resolveLogFormat } from './observability.logger.js';
import { traceExportersFromEnv } from './tracing.js';

const TOKEN = 'mcp_pat_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWpr';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbmFAZXhhbXBsZS5jb20ifQ.c2lnbmF0dXJl';

describe('log redaction', () => {
  it('cuts tokens, bearer credentials, JWTs and secret key=value pairs out of text', () => {
    const text = redactText(
      `token ${TOKEN} in "Authorization: Bearer abc.def-ghi" jwt ${JWT} password=hunter2 {"api_key":"k-123","ok":1} secret: s3cr3t`,
    );
    for (const secret of [TOKEN, 'abc.def-ghi', JWT, 'hunter2', 'k-123', 's3cr3t'])
      assert.ok(!text.includes(secret), `${secret} in ${text}`);
    assert.match(text, /mcp_pat_\[REDACTED\]/);
    assert.match(text, /"ok":1/);
  });

  it('cuts each kind of secret out of a short text on its own (the pass-through test never skips one)', () => {
    const cases: Array<[string, string]> = [
      ['basic dXNlcjpwdw==', 'dXNlcjpwdw=='],
      ['DIGEST abc123', 'abc123'],
      [`x ${TOKEN}`, TOKEN.slice(8)],
      [`jwt ${JWT}`, JWT],
      ['PASSWD: hunter2', 'hunter2'],
      ['api-key=k-123', 'k-123'],
      ['x_Cookie=c-1', 'c-1'],
      ['Content_Base64: "QUJD"', 'QUJD'],
      ['client_secret=s-1', 's-1'],
      ['my_credential=c-2', 'c-2'],
    ];
    for (const [text, secret] of cases) assert.ok(!redactText(text).includes(secret), `${secret} in ${redactText(text)}`);
    assert.equal(redactText('POST /mcp 200 12 ms'), 'POST /mcp 200 12 ms');
    assert.match(redactText(`file ${'QUJD'.repeat(50)}`), /\[base64 omitted\]/);
  });

  it('replaces secret-named fields and file contents at any depth, keeps the rest and never pollutes a prototype', () => {
    const base64 = Buffer.alloc(300, 7).toString('base64');
    const value = redactValue({
      headers: { authorization: `Bearer ${TOKEN}`, cookie: 'mcp_panel=abc', 'x-api-key': TOKEN, accept: 'application/json' },
      args: [{ password: 'hunter2', content_base64: base64, name: 'invoice.pdf', idempotency_key: 'k-1' }],
      note: `see ${TOKEN}`,
      ['__proto__']: { polluted: true },
    });
    const json = JSON.stringify(value);
    for (const secret of [TOKEN, 'hunter2', 'abc', base64]) assert.ok(!json.includes(secret), `${secret} in ${json}`);
    assert.match(json, /"accept":"application\/json"/);
    assert.match(json, /"name":"invoice.pdf"/);
    assert.match(json, /"idempotency_key":"k-1"/);
    assert.match(json, /"content_base64":"\[400 bytes omitted\]"/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('bounds depth, breadth and cycles', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    assert.match(JSON.stringify(redactValue(deep)), /\[Truncated\]/);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    assert.deepEqual(redactValue(cyclic), { a: 1, self: '[Circular]' });
    assert.equal((redactValue(Array.from({ length: 500 }, (_, i) => i)) as unknown[]).length, 101);
  });
});

describe('log format', () => {
  it('follows LOG_FORMAT, else pretty on a terminal outside production, else JSON', () => {
    assert.equal(resolveLogFormat({ LOG_FORMAT: 'pretty' }, false), 'pretty');
    assert.equal(resolveLogFormat({ LOG_FORMAT: 'JSON' }, true), 'json');
    assert.equal(resolveLogFormat({}, true), 'pretty');
    assert.equal(resolveLogFormat({ NODE_ENV: 'production' }, true), 'json');
    assert.equal(resolveLogFormat({}, false), 'json');
  });

  for (const format of ['json', 'pretty'] as const) {
    it(`redacts messages, fields and stacks in ${format} lines`, () => {
      const logger = new ObservabilityLogger(format, ['log', 'error']);
      const written: string[] = [];
      const original = { out: process.stdout.write, err: process.stderr.write };
      const sink = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
      process.stdout.write = sink;
      process.stderr.write = sink;
      try {
        logger.log(`signed in with ${TOKEN}`, { authorization: `Bearer ${TOKEN}`, user: 'ana' }, 'Test');
        const error = new Error(`failed for ${TOKEN}`);
        logger.error(error.message, error.stack, 'Test');
        logger.error(error, 'Test');
      } finally {
        process.stdout.write = original.out;
        process.stderr.write = original.err;
      }
      const output = written.join('');
      assert.ok(!output.includes(TOKEN), output);
      assert.match(output, /signed in with mcp_pat_\[REDACTED\]/);
      assert.match(output, /ana/);
      if (format === 'json') {
        const records = output
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        assert.equal(records[0].user, 'ana');
        assert.equal(records[0].context, 'Test');
        assert.match(String(records[1].stack), /failed for mcp_pat_\[REDACTED\]/);
      } else {
        assert.match(output, /\[Test\]/);
      }
    });
  }
});

describe('tracing configuration', () => {
  it('installs nothing unless an exporter or an OTLP endpoint is configured', () => {
    assert.deepEqual(traceExportersFromEnv({}), []);
    assert.deepEqual(traceExportersFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), ['otlp']);
    assert.deepEqual(traceExportersFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), ['otlp']);
    assert.deepEqual(traceExportersFromEnv({ OTEL_TRACES_EXPORTER: 'otlp' }), ['otlp']);
    assert.deepEqual(traceExportersFromEnv({ OTEL_TRACES_EXPORTER: 'console,otlp' }), ['otlp', 'console']);
    assert.deepEqual(traceExportersFromEnv({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), []);
    assert.deepEqual(traceExportersFromEnv({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }), []);
  });
});
