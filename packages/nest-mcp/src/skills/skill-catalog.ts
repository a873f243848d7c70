import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { ToolEntry } from '../invocation/capability-entries.js';
import { byName, McpRegistry } from '../registry/mcp.registry.js';
import { MCP_SKILLS_METADATA, type McpSkillOptions } from './mcp-skill.decorator.js';
import { readSkillFolder, SKILL_SCHEME, type SkillDirectory, type SkillFile, type SkillFolder } from './skill-folder.js';

/** The skills extension's identifier, under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** A skill served by this server: its folder as read at boot and the tools it teaches. */
export interface SkillEntry {
  name: string;
  folder: SkillFolder;
  /** The tools named by `@McpSkill({ tools })`: a caller sees the skill when the policy lets them use all of them. */
  tools: ToolEntry[];
  /** `Class` that declared it, for error messages at boot. */
  source: string;
  filesByUri: ReadonlyMap<string, SkillFile>;
  directoriesByUri: ReadonlyMap<string, SkillDirectory>;
}

/**
 * The skills declared with `@McpSkill()` on any module, provider or controller, read once at
 * bootstrap (after every tool is registered, so the tools a skill names can be checked). What
 * would serve a broken skill fails the boot with the declaring class and the folder: a missing
 * SKILL.md, invalid frontmatter, a name that is not the folder's, an unknown tool, two skills of
 * one name.
 */
@Injectable()
export class McpSkillCatalog implements OnApplicationBootstrap {
  private readonly byName = new Map<string, SkillEntry>();
  /** Sorted by name, so pages are deterministic. */
  skills: SkillEntry[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly registry: McpRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const seen = new Set<Function>();
    for (const wrapper of [...this.discovery.getControllers(), ...this.discovery.getProviders()]) {
      const type = wrapper.metatype;
      if (typeof type !== 'function' || seen.has(type)) continue;
      seen.add(type);
      const declared: McpSkillOptions[] | undefined = Reflect.getOwnMetadata(MCP_SKILLS_METADATA, type);
      for (const options of declared ?? []) await this.add(options, type.name);
    }
    this.skills = [...this.byName.values()].sort(byName);
  }

  /** Whether any skill is served: the extension is declared, and its methods answered, only then. */
  get declared(): boolean {
    return this.skills.length > 0;
  }

  /** The skill a `skill://<name>/…` URI belongs to, if this server serves one of that name. */
  owning(uri: string): SkillEntry | undefined {
    if (!uri.startsWith(SKILL_SCHEME)) return undefined;
    const name = uri.slice(SKILL_SCHEME.length).split('/', 1)[0];
    return this.byName.get(name);
  }

  private async add(options: McpSkillOptions, source: string): Promise<void> {
    let folder: SkillFolder;
    try {
      folder = await readSkillFolder(options.directory);
    } catch (error) {
      throw new Error(`@McpSkill on ${source}: ${(error as Error).message}`);
    }
    if (!Array.isArray(options.tools) || !options.tools.length) {
      throw new Error(`@McpSkill on ${source} (${folder.name}): "tools" must name the tools the skill teaches (at least one)`);
    }
    const tools = options.tools.map((name) => {
      const tool = this.registry.tool(name);
      if (!tool) {
        throw new Error(
          `@McpSkill on ${source} (${folder.name}): no tool is named "${name}"; the skill can only name tools this server registers`,
        );
      }
      return tool;
    });
    const existing = this.byName.get(folder.name);
    if (existing) throw new Error(`Duplicate MCP skill "${folder.name}": declared by ${existing.source} and by ${source}`);
    this.byName.set(folder.name, {
      name: folder.name,
      folder,
      tools,
      source,
      filesByUri: new Map(folder.files.map((file) => [file.uri, file])),
      directoriesByUri: new Map(folder.directories.map((directory) => [directory.uri, directory])),
    });
  }
}
