import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedJson, boundedText, cutText, MAX_ARGUMENTS_JSON_CHARS, storableString } from './audit-bounds.js';

describe('audit bounds', () => {
  it('removes NUL and replaces lone surrogates, leaving pairs and other text alone', () => {
    assert.equal(storableString('a\u0000b'), 'ab');
    assert.equal(storableString('x\ud800y\udc00z'), 'x\ufffdy\ufffdz');
    assert.equal(storableString('emoji 🤖 ok'), 'emoji 🤖 ok');
  });

  it('cuts text without splitting a surrogate pair', () => {
    assert.equal(cutText('ab🤖', 3), 'ab');
    assert.equal(cutText('ab🤖', 4), 'ab🤖');
    assert.equal(cutText('abc', 10), 'abc');
  });

  it('bounds a text column with a marker giving the original length', () => {
    assert.equal(boundedText(undefined), null);
    assert.equal(boundedText('short'), 'short');
    assert.equal(boundedText('x'.repeat(600), 512), `${'x'.repeat(512)}… [600 chars]`);
    assert.equal(boundedText('\u0000'.repeat(600), 512), '');
  });

  it('serializes arguments as storable JSON: NUL dropped from keys and values, lone surrogates replaced', () => {
    assert.equal(boundedJson(undefined), null);
    assert.equal(boundedJson({ a: 1 }), '{"a":1}');
    assert.deepEqual(JSON.parse(boundedJson({ 'k\u0000': ['v\u0000', { deep: 'half \ud83d' }] })!), { k: ['v', { deep: 'half \ufffd' }] });
    // A literal backslash-u0000 typed by a user is text, not NUL: kept as is.
    assert.deepEqual(JSON.parse(boundedJson({ note: '\\u0000' })!), { note: '\\u0000' });
  });

  it('replaces arguments too big to keep with a marker and a storable preview', () => {
    const json = boundedJson({ rows: Array.from({ length: 20_000 }, (_, i) => `🤖${i}`) })!;
    assert.ok(json.length < 3_000);
    const stored = JSON.parse(json) as Record<string, string>;
    assert.match(stored['[truncated]'], /^\d+ chars of JSON; the first 2000: \{"rows":\["🤖0"/);
    assert.ok(!/\\ud[89a-f]/i.test(json));
    assert.ok(JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => `🤖${i}`) }).length > MAX_ARGUMENTS_JSON_CHARS);
  });
});
