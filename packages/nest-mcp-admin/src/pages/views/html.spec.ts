import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { argumentsSummary, argumentsView } from './arguments.view.js';
import { escapeHtml, html, raw } from './html.js';

describe('admin pages html template', () => {
  it('escapes every interpolated value, but not nested templates', () => {
    const hostile = `<script>alert("x")</script>'&\``;
    assert.equal(escapeHtml(hostile), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;');
    assert.equal(html`<p title="${hostile}">${hostile}</p>`.value, `<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`);
    assert.equal(html`<ul>${['<a>', html`<li>${'<b>'}</li>`]}</ul>`.value, '<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>');
    assert.equal(html`${null}${undefined}${false}${0}${raw('<br>')}`.value, '0<br>');
  });

  it('renders bidi control characters as visible \\u escapes, in text and in attributes', () => {
    for (const control of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ]) {
      const code = control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      assert.equal(escapeHtml(`a${control}b`), `a\\u${code}b`);
    }
    assert.equal(html`<p title="${'x\u202Ey'}">${'gnp.exe\u202E<'}</p>`.value, '<p title="x\\u202Ey">gnp.exe\\u202E&lt;</p>');
    assert.equal(escapeHtml('שלום עליכם · Zürich'), 'שלום עליכם · Zürich', 'ordinary right-to-left text is left alone');
  });

  it('shows what a top-level id refers to under it, escaped', () => {
    const id = '3f2a7c9e-1b4d-4e8f-9a6b-2c5d7e9f0a1b';
    const view = argumentsView({ invoice_id: id.toUpperCase(), reason: id }, new Map([[id, 'Invoice INV-1 · <Acme>']])).value;
    assert.match(
      view,
      /<th scope="row">invoice_id<\/th><td><span class="value">[^<]+<\/span><div class="reference">Invoice INV-1 · &lt;Acme&gt;<\/div>/,
    );
  });

  it('lays arguments out as escaped nested tables, bounded for hostile sizes', () => {
    const view = argumentsView({
      reason: '<img src=x onerror=alert(1)>',
      lines: [{ qty: 1 }],
      meta: {},
      note: null,
      long: 'y'.repeat(5000),
    }).value;
    assert.ok(!view.includes('<img'));
    assert.match(view, /<th scope="row">reason<\/th><td><span class="value">&lt;img src=x onerror=alert\(1\)&gt;<\/span>/);
    assert.match(view, /<ol><li><table class="args">/);
    assert.match(view, /\(empty\)/);
    assert.match(view, /\(none\)/);
    assert.match(view, /… 1000 more characters/);
    const many = argumentsView(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]))).value;
    assert.match(many, /… 50 more not shown/);
    let deep: Record<string, unknown> = { leaf: '<x>' };
    for (let i = 0; i < 20; i++) deep = { d: deep };
    assert.ok(!argumentsView(deep).value.includes('<x>'));
    assert.equal(argumentsSummary({ a: 'x'.repeat(50), b: 2, c: true, d: 1 }), `a: ${'x'.repeat(40)}… · b: 2 · c: true · +1 more`);
  });
});
