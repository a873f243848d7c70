import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/** One import or re-export in a source file. */
export interface ImportSite {
  file: string;
  specifier: string;
  /** Absolute path for a relative specifier. */
  target?: string;
}

/** The TypeScript files under `dir` (declarations and generated code left out). */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The imports of a file, read from its text (no compiler needed). */
export function importsOf(file: string): ImportSite[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => {
    const specifier = match[1] ?? match[2];
    return { file, specifier, ...(specifier.startsWith('.') ? { target: resolve(dirname(file), specifier) } : {}) };
  });
}

export const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
export const isSpec = (file: string) => /\.(e2e-)?spec\.ts$/.test(file);

/** The top-level package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
