import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { DIRECTORY_MIME_TYPE, mimeTypeOf } from './skill-files.js';
import { parseSkillFrontmatter, type SkillFrontmatter } from './skill-frontmatter.js';

/** The URI scheme skills are served under: `skill://<name>/<path inside the folder>`. */
export const SKILL_SCHEME = 'skill://';
export const SKILL_MANIFEST = 'SKILL.md';

/** The skills extension's bounds on one skill: hosts may refuse larger ones, so the boot does. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** One file of a skill, read at boot: what `resources/read` answers and the manifest lists. */
export interface SkillFile {
  uri: string;
  /** The file's name (its last path segment). */
  name: string;
  mimeType: string;
  bytes: Buffer;
  /** `sha256:<64 lowercase hex>` of the raw bytes. */
  digest: string;
  size: number;
}

/** One directory of a skill (its root included) and its direct children, files and directories, sorted by URI. */
export interface SkillDirectory {
  uri: string;
  name: string;
  children: Array<{ uri: string; name: string; mimeType: string }>;
}

/** A skill folder as it was read at boot. */
export interface SkillFolder {
  name: string;
  frontmatter: SkillFrontmatter;
  /** `skill://<name>/SKILL.md`. */
  uri: string;
  /** `skill://<name>`: the root directory (no trailing slash). */
  rootUri: string;
  /** Every file, SKILL.md first, then by URI. */
  files: SkillFile[];
  directories: SkillDirectory[];
}

/**
 * Reads a skill folder: its `SKILL.md` (frontmatter checked, `name` equal to the folder's name),
 * every supporting file below it (digest and size of the raw bytes), and its directory tree.
 * Dot-files (`.DS_Store`, `.gitkeep`) are not part of a skill; a symbolic link or anything that
 * is not a file or a directory is refused, so what is served is exactly what the folder holds.
 * Throws a message naming the folder and what to fix.
 */
export async function readSkillFolder(directory: string): Promise<SkillFolder> {
  if (!isAbsolute(directory)) {
    throw new Error(`skill directory "${directory}" must be an absolute path (join(import.meta.dirname, 'skills', '<name>'))`);
  }
  const manifestPath = join(directory, SKILL_MANIFEST);
  let manifest: Buffer;
  try {
    manifest = await readFile(manifestPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `${manifestPath} does not exist: a skill folder must hold a SKILL.md (when running the build, copy the folder with the module's code)`
        : `${manifestPath} cannot be read: ${(error as Error).message}`,
    );
  }
  let frontmatter: SkillFrontmatter;
  try {
    frontmatter = parseSkillFrontmatter(manifest.toString('utf8'));
  } catch (error) {
    throw new Error(`${manifestPath}: ${(error as Error).message}`);
  }
  const folderName = basename(directory);
  if (frontmatter.name !== folderName) {
    throw new Error(`${manifestPath}: frontmatter name "${frontmatter.name}" must equal the folder's name "${folderName}"`);
  }
  const rootUri = `${SKILL_SCHEME}${frontmatter.name}`;
  const files: SkillFile[] = [];
  const directories: SkillDirectory[] = [];
  await walk(directory, rootUri, frontmatter.name, files, directories);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (files.length > MAX_SKILL_FILES) throw new Error(`${directory}: ${files.length} files; a skill has at most ${MAX_SKILL_FILES}`);
  if (total > MAX_SKILL_BYTES) throw new Error(`${directory}: ${total} bytes; a skill has at most ${MAX_SKILL_BYTES} (16 MiB)`);
  const uri = `${rootUri}/${SKILL_MANIFEST}`;
  files.sort((a, b) => (a.uri === uri ? -1 : b.uri === uri ? 1 : compare(a.uri, b.uri)));
  directories.sort((a, b) => compare(a.uri, b.uri));
  return { name: frontmatter.name, frontmatter, uri, rootUri, files, directories };
}

async function walk(path: string, uri: string, name: string, files: SkillFile[], directories: SkillDirectory[]): Promise<void> {
  const directory: SkillDirectory = { uri, name, children: [] };
  directories.push(directory);
  const entries = (await readdir(path, { withFileTypes: true })).filter((entry) => !entry.name.startsWith('.'));
  for (const entry of entries) {
    const childPath = join(path, entry.name);
    // Percent-encoded: a file name may hold characters a URI path may not (a space, '#', '?').
    const childUri = `${uri}/${encodeURIComponent(entry.name)}`;
    if (entry.isDirectory()) {
      directory.children.push({ uri: childUri, name: entry.name, mimeType: DIRECTORY_MIME_TYPE });
      await walk(childPath, childUri, entry.name, files, directories);
    } else if (entry.isFile()) {
      const bytes = await readFile(childPath);
      const mimeType = mimeTypeOf(entry.name);
      files.push({ uri: childUri, name: entry.name, mimeType, bytes, digest: digestOf(bytes), size: bytes.length });
      directory.children.push({ uri: childUri, name: entry.name, mimeType });
    } else {
      throw new Error(`${childPath}: a skill holds files and directories only (not a symbolic link or a device)`);
    }
  }
  directory.children.sort((a, b) => compare(a.uri, b.uri));
}

/** `sha256:<hex>` of raw bytes, as the skills extension formats digests. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
