/** Where `@McpSkill()` keeps the skills a class declares (a list: the decorator may be repeated). */
export const MCP_SKILLS_METADATA = 'mcp:skills';

/** One skill, as a module (or any provider or controller) declares it with `@McpSkill()`. */
export interface McpSkillOptions {
  /**
   * The absolute path of the skill's folder: a `SKILL.md` (YAML frontmatter with `name`, equal to
   * the folder's name, and `description`) and any supporting files. Usually
   * `join(import.meta.dirname, 'skills', '<name>')`, beside the module, so that the skill ships
   * with the module's code (copy the folder into the build with the module).
   */
  directory: string;
  /**
   * The tools the skill teaches, by name. Each must exist (checked at boot), and a caller sees
   * the skill only when the access policy lets them use every one of them.
   */
  tools: string[];
}

/**
 * Declares a skill (an Agent Skills folder that teaches an agent a workflow across tools) on the
 * Nest module whose tools it uses. The layer reads the folder at boot and serves it through the
 * skills extension (`skills/list`, `skills/get`, `resources/read` of `skill://<name>/…`,
 * `resources/directory/read`): see docs/skills.md.
 */
export function McpSkill(options: McpSkillOptions): ClassDecorator {
  return (target) => {
    const declared: McpSkillOptions[] = Reflect.getOwnMetadata(MCP_SKILLS_METADATA, target) ?? [];
    Reflect.defineMetadata(MCP_SKILLS_METADATA, [...declared, { directory: options.directory, tools: [...options.tools] }], target);
  };
}
