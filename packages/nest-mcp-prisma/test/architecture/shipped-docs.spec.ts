import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The pages the tarball ships (README.md, docs/) stand alone: every relative link points at a file
 * that ships too, so a user who installed the package never meets a link into this repository.
 */
const pkg = resolve(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { files: string[] };
const shippedRoots = manifest.files.filter((entry) => !entry.startsWith('!'));
const ships = (file: string) => shippedRoots.some((root) => file === join(pkg, root) || file.startsWith(join(pkg, root) + sep));
const pages = [join(pkg, 'README.md'), ...readdirSync(join(pkg, 'docs')).map((name) => join(pkg, 'docs', name))].filter((page) =>
  page.endsWith('.md'),
);
const LINK = /\]\(([^)\s]+)\)/g;

describe('shipped docs (@nest-mcp/prisma)', () => {
  it('README.md and docs/ ship in the tarball', () => {
    assert.ok(pages.length >= 2);
    for (const page of pages) assert.ok(ships(page), relative(pkg, page));
  });

  it('link only to pages and files that ship with them (or to the web)', () => {
    const broken = pages.flatMap((page) =>
      [...readFileSync(page, 'utf8').matchAll(LINK)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
        .map((target) => ({ target, file: resolve(dirname(page), target.split('#')[0]) }))
        .filter(({ file }) => !existsSync(file) || !ships(file))
        .map(({ target }) => `${relative(pkg, page)} → ${target}`),
    );
    assert.deepEqual(broken, []);
  });
});
