import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readSkillFolder } from './skill-folder.js';

const MANIFEST = '---\nname: month-end-close\ndescription: Close the month.\n---\n\n# Month-end close\n';

describe('readSkillFolder', () => {
  const root = mkdtempSync(join(tmpdir(), 'skill-folder-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A skill folder under a fresh parent: files by relative path. */
  function folder(name: string, files: Record<string, string | Buffer>): string {
    const directory = join(mkdtempSync(join(root, 'case-')), name);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(directory, path, '..'), { recursive: true });
      writeFileSync(join(directory, path), content);
    }
    return directory;
  }

  it('reads SKILL.md first, then every file by URI, with the sha256 digest and size of its raw bytes', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]);
    const directory = folder('month-end-close', {
      'SKILL.md': MANIFEST,
      'references/checklist.md': '# Checklist\n',
      'assets/logo.png': png,
      'my notes.txt': 'é',
      '.DS_Store': 'ignored',
    });
    const skill = await readSkillFolder(directory);
    assert.equal(skill.uri, 'skill://month-end-close/SKILL.md');
    assert.equal(skill.rootUri, 'skill://month-end-close');
    assert.deepEqual(
      skill.files.map(({ uri, mimeType, digest, size }) => ({ uri, mimeType, digest, size })),
      [
        { uri: 'skill://month-end-close/SKILL.md', mimeType: 'text/markdown', digest: sha256(MANIFEST), size: Buffer.byteLength(MANIFEST) },
        { uri: 'skill://month-end-close/assets/logo.png', mimeType: 'image/png', digest: sha256(png), size: 5 },
        { uri: 'skill://month-end-close/my%20notes.txt', mimeType: 'text/plain', digest: sha256('é'), size: 2 },
        { uri: 'skill://month-end-close/references/checklist.md', mimeType: 'text/markdown', digest: sha256('# Checklist\n'), size: 12 },
      ],
    );
    assert.match(skill.files[0].digest, /^sha256:[0-9a-f]{64}$/);
  });

  it('lists each directory with its direct children, subdirectories as inode/directory', async () => {
    const skill = await readSkillFolder(
      folder('month-end-close', { 'SKILL.md': MANIFEST, 'references/a.md': 'a', 'references/deep/b.md': 'b' }),
    );
    assert.deepEqual(skill.directories, [
      {
        uri: 'skill://month-end-close',
        name: 'month-end-close',
        children: [
          { uri: 'skill://month-end-close/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
          { uri: 'skill://month-end-close/references', name: 'references', mimeType: 'inode/directory' },
        ],
      },
      {
        uri: 'skill://month-end-close/references',
        name: 'references',
        children: [
          { uri: 'skill://month-end-close/references/a.md', name: 'a.md', mimeType: 'text/markdown' },
          { uri: 'skill://month-end-close/references/deep', name: 'deep', mimeType: 'inode/directory' },
        ],
      },
      {
        uri: 'skill://month-end-close/references/deep',
        name: 'deep',
        children: [{ uri: 'skill://month-end-close/references/deep/b.md', name: 'b.md', mimeType: 'text/markdown' }],
      },
    ]);
  });

  it('gives a new digest when a file changes: the version a host sees moves with the content', async () => {
    const before = await readSkillFolder(folder('month-end-close', { 'SKILL.md': MANIFEST, 'references/a.md': 'one' }));
    const changed = await readSkillFolder(folder('month-end-close', { 'SKILL.md': MANIFEST, 'references/a.md': 'two' }));
    assert.equal(before.files[0].digest, changed.files[0].digest);
    assert.notEqual(before.files[1].digest, changed.files[1].digest);
  });

  it('refuses a relative directory', async () => {
    await assert.rejects(readSkillFolder('skills/month-end-close'), /must be an absolute path/);
  });

  it('refuses a folder without SKILL.md, naming the file and the build step', async () => {
    const directory = folder('month-end-close', { 'README.md': 'x' });
    await assert.rejects(readSkillFolder(directory), {
      message: `${join(directory, 'SKILL.md')} does not exist: a skill folder must hold a SKILL.md (when running the build, copy the folder with the module's code)`,
    });
  });

  it('refuses invalid frontmatter, naming the file', async () => {
    const directory = folder('month-end-close', { 'SKILL.md': '---\nname: month-end-close\n---\n' });
    await assert.rejects(readSkillFolder(directory), {
      message: `${join(directory, 'SKILL.md')}: frontmatter "description" is required: say what the skill does and when to use it`,
    });
  });

  it("refuses a name that is not the folder's", async () => {
    await assert.rejects(
      readSkillFolder(folder('close', { 'SKILL.md': MANIFEST })),
      /frontmatter name "month-end-close" must equal the folder's name "close"/,
    );
  });

  it('refuses a symbolic link inside the skill', async () => {
    const directory = folder('month-end-close', { 'SKILL.md': MANIFEST });
    symlinkSync('/etc/hostname', join(directory, 'link.txt'));
    await assert.rejects(readSkillFolder(directory), /link\.txt: a skill holds files and directories only/);
  });

  it('refuses a skill of more than 512 files', async () => {
    const files: Record<string, string> = { 'SKILL.md': MANIFEST };
    for (let i = 0; i < 512; i++) files[`f/${i}.txt`] = '';
    await assert.rejects(readSkillFolder(folder('month-end-close', files)), /513 files; a skill has at most 512/);
  });
});

function sha256(content: string | Buffer): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}
