import { CORE_SCHEMA, load } from 'js-yaml';

/** A skill's frontmatter as its author wrote it, rendered as JSON (`name` and `description` always present). */
export type SkillFrontmatter = { name: string; description: string } & Record<string, unknown>;

/** The Agent Skills naming rule: 1-64 lowercase letters, digits and single hyphens, no hyphen first or last. */
export const SKILL_NAME_PATTERN = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The Agent Skills bound on `description`. */
const MAX_DESCRIPTION_LENGTH = 1024;

/** Metadata keys under this prefix are reserved for MCP extensions; none is defined, so none may be used. */
const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

/** The `---` block at the very start of the file (a byte-order mark allowed), as the skills extension reads it. */
const FRONTMATTER_BLOCK = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads and checks the YAML frontmatter of a `SKILL.md`. The object is served verbatim (every
 * field the author wrote), so it is parsed with the YAML 1.2 core schema, the one clients parse it
 * with: only JSON values come out (a date stays a string). Throws a message naming what to fix.
 */
export function parseSkillFrontmatter(text: string): SkillFrontmatter {
  const block = FRONTMATTER_BLOCK.exec(text);
  if (!block) throw new Error('SKILL.md must begin with a YAML frontmatter block between two "---" lines');
  let parsed: unknown;
  try {
    parsed = load(block[1], { schema: CORE_SCHEMA });
  } catch (error) {
    throw new Error(`the frontmatter of SKILL.md is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('the frontmatter of SKILL.md must be a mapping (name: …, description: …)');
  }
  const frontmatter = parsed as Record<string, unknown>;
  const { name, description, metadata } = frontmatter;
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name)) {
    throw new Error(
      `frontmatter "name" must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one; got ${JSON.stringify(name)}`,
    );
  }
  if (typeof description !== 'string' || !description.trim()) {
    throw new Error('frontmatter "description" is required: say what the skill does and when to use it');
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new Error(`frontmatter "description" is ${description.length} characters long; at most ${MAX_DESCRIPTION_LENGTH}`);
  }
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    throw new Error('frontmatter "metadata" must be a mapping of keys to values');
  }
  const reserved = Object.keys(metadata ?? {}).filter((key) => key.startsWith(RESERVED_METADATA_PREFIX));
  if (reserved.length) {
    throw new Error(
      `frontmatter "metadata" keys under ${RESERVED_METADATA_PREFIX} are reserved for MCP extensions: ${reserved.join(', ')}`,
    );
  }
  return frontmatter as SkillFrontmatter;
}
