import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The pages each package's tarball ships (README.md, docs/) stand alone: every relative link
 * points at a file that ships too, so a user who installed a package never meets a link into this
 * repository. Every package under packages/ is checked, this one and its adapters alike.
 */
const packages = resolve(import.meta.dirname, '..', '..', '..');
const LINK = /\]\(([^)\s]+)\)/g;

for (const name of readdirSync(packages).filter((entry) => existsSync(join(packages, entry, 'package.json')))) {
  const pkg = join(packages, name);
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { name: string; files: string[] };
  const shippedRoots = manifest.files.filter((entry) => !entry.startsWith('!'));
  const ships = (file: string) => shippedRoots.some((root) => file === join(pkg, root) || file.startsWith(join(pkg, root) + sep));
  const docs = existsSync(join(pkg, 'docs')) ? readdirSync(join(pkg, 'docs')).map((page) => join(pkg, 'docs', page)) : [];
  const pages = [join(pkg, 'README.md'), ...docs].filter((page) => page.endsWith('.md'));

  describe(`shipped docs (${manifest.name})`, () => {
    it('README.md and docs/ ship in the tarball', () => {
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
}
