import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import 'reflect-metadata';
import { MCP_TOOL_METADATA } from './mcp-metadata.keys.js';
import { checkIcons } from './mcp-icons.js';
import { McpPrompt } from './mcp-prompt.decorator.js';
import { McpResource } from './mcp-resource.decorator.js';
import { McpTool } from './mcp-tool.decorator.js';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('checkIcons (2025-11-25 icons)', () => {
  it('keeps https and data:image icons with mimeType, sizes and theme', () => {
    const icons = [
      { src: 'https://cdn.example.com/invoice.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' as const },
      { src: PNG, mimeType: 'image/png', sizes: ['1x1', '48x48'] },
    ];
    assert.deepEqual(checkIcons('t', icons), icons);
    assert.equal(checkIcons('t', undefined), undefined);
  });

  for (const [label, icon, pattern] of [
    ['an http URL', { src: 'http://cdn.example.com/a.png' }, /src must be an https: URL or a data:image/],
    ['a javascript: URI', { src: 'javascript:alert(1)' }, /src must be/],
    ['a relative path', { src: '/icons/a.png' }, /src must be/],
    ['a URL with credentials', { src: 'https://u:p@cdn.example.com/a.png' }, /src must be/],
    ['a data URI that is not an image', { src: 'data:text/html;base64,PGI+' }, /src must be/],
    ['a data URI that is not base64', { src: 'data:image/svg+xml,<svg/>' }, /src must be/],
    ['a non-image mimeType', { src: 'https://x.example/a', mimeType: 'text/html' }, /mimeType must be an image media type/],
    ['a mimeType that contradicts the data URI', { src: PNG, mimeType: 'image/jpeg' }, /data: URI says image\/png/],
    ['sizes that are not WxH', { src: PNG, sizes: ['48'] }, /sizes must be a non-empty array/],
    ['empty sizes', { src: PNG, sizes: [] }, /sizes must be a non-empty array/],
    ['an unknown theme', { src: PNG, theme: 'blue' }, /theme must be "light" or "dark"/],
    ['an unknown field', { src: PNG, alt: 'x' }, /unknown field\(s\) alt/],
  ] as const) {
    it(`refuses ${label}, saying what to change`, () => {
      assert.throws(
        () => checkIcons('@McpTool demo', [icon]),
        (error: Error) => {
          assert.match(error.message, /^@McpTool demo: icons\[0\]/);
          assert.match(error.message, pattern);
          return true;
        },
      );
    });
  }

  it('is applied by @McpTool, @McpResource and @McpPrompt when the class is declared', () => {
    const bad = [{ src: 'ftp://x/a.png' }];
    assert.throws(() => McpTool({ description: 'd', icons: bad })({}, 'm', { value: () => 0 }), /@McpTool m: icons\[0\]\.src/);
    assert.throws(() => McpResource({ uri: 'a://b', icons: bad })({}, 'r', { value: () => 0 }), /@McpResource r: icons\[0\]/);
    assert.throws(() => McpPrompt({ icons: bad })({}, 'p', { value: () => 0 }), /@McpPrompt p: icons\[0\]/);
    const method = () => 0;
    McpTool({ description: 'd', icons: [{ src: PNG }] })({}, 'ok', { value: method });
    assert.deepEqual(Reflect.getMetadata(MCP_TOOL_METADATA, method).icons, [{ src: PNG }]);
  });
});
