import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSkillFrontmatter } from './skill-frontmatter.js';

const skill = (frontmatter: string, body = '\n# Body\n') => `---\n${frontmatter}\n---\n${body}`;

describe('parseSkillFrontmatter', () => {
  it('renders every field the author wrote, as YAML 1.2 core reads it (a quoted version stays a string, a date too)', () => {
    const frontmatter = parseSkillFrontmatter(
      skill(
        'name: month-end-close\ndescription: Close the month.\nlicense: MIT\nreleased: 2026-06-01\nmetadata:\n  version: "2.1"\n  owner: finance',
      ),
    );
    assert.deepEqual(frontmatter, {
      name: 'month-end-close',
      description: 'Close the month.',
      license: 'MIT',
      released: '2026-06-01',
      metadata: { version: '2.1', owner: 'finance' },
    });
  });

  it('accepts a byte-order mark and CRLF line ends', () => {
    assert.equal(parseSkillFrontmatter('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nbody').name, 'a');
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['no frontmatter block', '# Just markdown\n', /must begin with a YAML frontmatter block/],
    ['invalid YAML', skill('name: [unclosed\ndescription: x'), /not valid YAML/],
    ['a list instead of a mapping', skill('- name\n- description'), /must be a mapping/],
    ['a missing name', skill('description: x'), /"name" must be 1-64 lowercase/],
    ['an upper-case name', skill('name: Month-End\ndescription: x'), /"name" must be 1-64 lowercase.*"Month-End"/],
    ['a name with a double hyphen', skill('name: month--end\ndescription: x'), /"name" must be/],
    ['a name ending with a hyphen', skill('name: month-\ndescription: x'), /"name" must be/],
    ['a 65-character name', skill(`name: ${'a'.repeat(65)}\ndescription: x`), /"name" must be/],
    ['a missing description', skill('name: a'), /"description" is required/],
    ['a blank description', skill('name: a\ndescription: "  "'), /"description" is required/],
    ['a description over 1024 characters', skill(`name: a\ndescription: ${'x'.repeat(1025)}`), /1025 characters long; at most 1024/],
    ['metadata that is not a mapping', skill('name: a\ndescription: b\nmetadata: 3'), /"metadata" must be a mapping/],
    [
      'a metadata key under the reserved prefix',
      skill('name: a\ndescription: b\nmetadata:\n  io.modelcontextprotocol/x: 1'),
      /reserved for MCP extensions: io\.modelcontextprotocol\/x/,
    ],
    ['a duplicated key', skill('name: a\nname: b\ndescription: c'), /not valid YAML/],
  ];
  for (const [what, text, message] of refusals) {
    it(`refuses ${what}`, () => {
      assert.throws(() => parseSkillFrontmatter(text), message);
    });
  }
});
