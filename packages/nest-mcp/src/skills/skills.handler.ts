import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { CapabilityAccess } from '../access/capability-access.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { paginate } from '../protocol/list-pagination.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { quotedUri, resourceUriParam } from '../protocol/resource-uri.js';
import { McpSkillCatalog, SKILLS_EXTENSION, type SkillEntry } from './skill-catalog.js';
import { isTextual } from './skill-files.js';

/** A skill as `skills/list` and `skills/get` carry it: the SKILL.md URI, its frontmatter verbatim, every file's digest and size. */
export interface SkillWireEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Array<{ uri: string; digest: string; size: number }>;
}

/**
 * The skills extension (docs/skills.md): `skills/list`, `skills/get`, `resources/directory/read`,
 * and the skill files `resources/read` and `resources/list` serve. A caller sees a skill only when
 * the access policy lets them use every tool it names; a skill they may not see answers exactly
 * as one that does not exist, so its existence does not leak.
 */
@Injectable()
export class SkillsHandler {
  constructor(
    private readonly catalog: McpSkillCatalog,
    private readonly access: CapabilityAccess,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  /** Whether any skill is served. */
  get any(): boolean {
    return this.catalog.declared;
  }

  /**
   * The capabilities with the skills extension added to their `extensions` when a skill is served
   * (both eras: `server/discover` and `initialize`), with `directoryRead`: this server answers
   * `resources/directory/read` for every directory of its skills.
   */
  declaredIn<T extends { extensions?: Record<string, object> }>(capabilities: T): T {
    if (!this.catalog.declared) return capabilities;
    return { ...capabilities, extensions: { ...capabilities.extensions, [SKILLS_EXTENSION]: { directoryRead: true } } };
  }

  list(params: Record<string, unknown>, context: McpRequestContext): { skills: SkillWireEntry[]; nextCursor?: string } {
    this.assertDeclared(context);
    const { page, nextCursor } = paginate(this.visibleSkills(context), params.cursor, this.options.pageSize);
    return { skills: page.map(wireEntry), ...(nextCursor ? { nextCursor } : {}) };
  }

  get(params: Record<string, unknown>, context: McpRequestContext): { skill: SkillWireEntry } {
    this.assertDeclared(context);
    const uri = resourceUriParam(params.uri);
    const skill = this.visibleSkill(uri, context);
    if (!skill || skill.folder.uri !== uri) {
      throw McpProtocolError.invalidParams(
        `Unknown skill: ${quotedUri(uri)}. Pass the uri of a skill's SKILL.md, as skills/list gives it.`,
        { uri },
      );
    }
    return { skill: wireEntry(skill) };
  }

  /** `resources/directory/read`: one page of a skill directory's direct children (subdirectories as `inode/directory`). */
  directoryRead(params: Record<string, unknown>, context: McpRequestContext): { resources: Resource[]; nextCursor?: string } {
    this.assertDeclared(context);
    const uri = resourceUriParam(params.uri);
    const skill = this.visibleSkill(uri, context);
    const directory = skill?.directoriesByUri.get(uri);
    if (!directory) {
      const isFile = !!skill?.filesByUri.has(uri);
      throw McpProtocolError.invalidParams(
        isFile
          ? `${quotedUri(uri)} is a file, not a directory: read it with resources/read`
          : `Unknown directory: ${quotedUri(uri)}. A skill's directories are its root (the SKILL.md uri without /SKILL.md) and the folders below it.`,
        { uri },
      );
    }
    const { page, nextCursor } = paginate(directory.children, params.cursor, this.options.pageSize);
    return { resources: page.map((child) => ({ ...child })), ...(nextCursor ? { nextCursor } : {}) };
  }

  /** `resources/read` of a skill file the caller may see; undefined for any other URI (the resources handler goes on). */
  read(uri: string, context: McpRequestContext): ReadResourceResult | undefined {
    const file = this.visibleSkill(uri, context)?.filesByUri.get(uri);
    if (!file) return undefined;
    const content = isTextual(file.mimeType, file.bytes)
      ? { uri, mimeType: file.mimeType, text: file.bytes.toString('utf8') }
      : { uri, mimeType: file.mimeType, blob: file.bytes.toString('base64') };
    return { contents: [content] };
  }

  /** The SKILL.md of each skill the caller may see, as `resources/list` lists it (name and description from the frontmatter). */
  listedResources(context: McpRequestContext): Resource[] {
    return this.visibleSkills(context).map(({ folder }) => ({
      uri: folder.uri,
      name: folder.name,
      description: folder.frontmatter.description,
      mimeType: folder.files[0].mimeType,
      size: folder.files[0].size,
    }));
  }

  private visibleSkills(context: McpRequestContext): SkillEntry[] {
    return this.catalog.skills.filter((skill) => this.canSee(skill, context));
  }

  private visibleSkill(uri: string, context: McpRequestContext): SkillEntry | undefined {
    const skill = this.catalog.owning(uri);
    return skill && this.canSee(skill, context) ? skill : undefined;
  }

  /** Every tool the skill names must be usable by the caller: a workflow they could only half run is not shown. */
  private canSee(skill: SkillEntry, context: McpRequestContext): boolean {
    return skill.tools.every((tool) => this.access.allows('tool', tool, context));
  }

  /** Without a skill the extension is not declared, and its methods are unknown, as any undeclared method is. */
  private assertDeclared(context: McpRequestContext): void {
    if (this.catalog.declared) return;
    throw McpProtocolError.methodNotFound(context.method, context.era);
  }
}

function wireEntry({ folder }: SkillEntry): SkillWireEntry {
  return {
    uri: folder.uri,
    frontmatter: folder.frontmatter,
    resources: folder.files.map(({ uri, digest, size }) => ({ uri, digest, size })),
  };
}
