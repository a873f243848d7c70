import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importsOf, inside, isSpec, sources, type ImportSite } from '../support/import-sites.js';

/**
 * Each package's folders are layers (the core's and every adapter's): each folder of src/ imports only folders below it, so there is
 * no folder-level import loop, type imports included. The files at the root of src/ (index.ts,
 * mcp.module.ts, mcp.module-definition.ts) compose the layers: they may import any folder and no
 * folder imports them. Specs are left out (a spec may import what it tests from anywhere). A failure
 * names the loop and one import of each of its edges.
 */
const ROOT = '(src root)';

/** The folder graph of one package's src/ (specs left out). */
function layering(pkg: string) {
  const src = join(pkg, 'src');
  const shipped = sources(src).filter((file) => !isSpec(file));
  /** The folder of src/ a file belongs to (its first path segment), or the root. */
  const folderOf = (file: string) => {
    const parts = relative(src, file).split(sep);
    return parts.length > 1 ? parts[0] : ROOT;
  };
  const show = (site: ImportSite) => `${relative(pkg, site.file)} imports '${site.specifier}'`;

  /** Imports from one folder into another, root files aside (the first import seen stands for each edge). */
  const crossings = shipped
    .flatMap(importsOf)
    .filter((site): site is ImportSite & { target: string } => site.target !== undefined && inside(site.target, src))
    .map((site) => ({ site, from: folderOf(site.file), to: folderOf(site.target) }))
    .filter(({ from, to }) => from !== to);
  const edges = new Map<string, Map<string, ImportSite>>();
  for (const { site, from, to } of crossings) {
    if (from === ROOT || to === ROOT) continue; // the root's side is the first test
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, site);
  }
  const next = (folder: string) => [...(edges.get(folder)?.keys() ?? [])].sort();

  /** Strongly connected components of more than one folder (Tarjan). */
  function loops(): string[][] {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (folder: string) => {
      index.set(folder, index.size);
      low.set(folder, index.get(folder)!);
      stack.push(folder);
      for (const to of next(folder)) {
        if (!index.has(to)) {
          visit(to);
          low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
        } else if (stack.includes(to)) low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
      }
      if (low.get(folder) === index.get(folder)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          component.push(member);
        } while (member !== folder);
        if (component.length > 1) found.push(component.sort());
      }
    };
    for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) visit(folder);
    return found;
  }

  /** One loop through `start` inside `component`, shortest first: `a → b → … → a`, with one import per edge. */
  function describeLoop(component: string[]): string {
    const members = new Set(component);
    const start = component[0];
    const previous = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length && last === undefined) {
      const folder = queue.shift()!;
      for (const to of next(folder).filter((f) => members.has(f))) {
        if (to === start) {
          last = folder;
          break;
        }
        if (!previous.has(to)) {
          previous.set(to, folder);
          queue.push(to);
        }
      }
    }
    const path = [start];
    for (let folder = last!; folder !== start; folder = previous.get(folder)!) path.splice(1, 0, folder);
    path.push(start);
    const steps = path.slice(1).map((to, i) => `    ${path[i]} → ${to}: ${show(edges.get(path[i])!.get(to)!)}`);
    return [`${path.join(' → ')} (folders in this loop: ${component.join(', ')})`, ...steps].join('\n');
  }
  return { crossings, edges, loops, describeLoop };
}

const packages = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const core = resolve(packages, 'nest-mcp');

// Every package of the repository: the core and its adapters follow the same rule.
for (const pkg of readdirSync(packages)
  .map((name) => join(packages, name))
  .filter((dir) => existsSync(join(dir, 'package.json')))) {
  const { crossings, edges, loops, describeLoop } = layering(pkg);
  const name = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { name: string }).name;
  describe(`folder layering (${name})`, () => {
    it('no folder imports the composition root (the files at the root of src/: index.ts, the module and its definition)', () => {
      const intoRoot = crossings
        .filter(({ to }) => to === ROOT)
        .map(({ site }) => `${relative(pkg, site.file)} imports '${site.specifier}'`);
      assert.deepEqual(intoRoot, []);
    });

    it('the folders of src/ import each other without a loop (type imports count)', () => {
      assert.deepEqual(loops().map(describeLoop), []);
    });

    it('finds folder-to-folder imports at all (the scan is not vacuous)', () => {
      assert.ok(edges.size > 2);
      if (pkg === core) assert.ok(crossings.some(({ from, to }) => from === 'server' && to === 'protocol'));
    });
  });
}
