import { Injectable } from '@nestjs/common';
import type { CompletionEntry, PromptEntry, ResourceEntry, ResourceTemplateEntry, ToolEntry } from '../invocation/capability-entries.js';
import { headerParametersOf } from '../schema/header-parameters.js';

type Named = { name: string; source: string };

/**
 * Everything the endpoint serves, built once at bootstrap by `McpExplorer`. The request path only
 * looks things up here; lists are kept sorted by name so pages are deterministic.
 */
@Injectable()
export class McpRegistry {
  private readonly toolsByName = new Map<string, ToolEntry>();
  private readonly resourcesByUri = new Map<string, ResourceEntry>();
  private readonly resourceNames = new Map<string, Named>();
  private readonly templatesByName = new Map<string, ResourceTemplateEntry>();
  private readonly promptsByName = new Map<string, PromptEntry>();
  private readonly completionsByKey = new Map<string, CompletionEntry>();

  tools: ToolEntry[] = [];
  /**
   * The tools without `visibility: ['app']`: what `tools/list` shows a client that renders no app
   * views (docs/app-views.md). A tool only views call has nothing to offer it, and would tempt its model.
   */
  modelTools: ToolEntry[] = [];
  /** Whether any tool can run as a task (declared with `task`): the tasks extension is then offered and its worker runs. */
  hasTaskTools = false;
  resources: ResourceEntry[] = [];
  templates: ResourceTemplateEntry[] = [];
  prompts: PromptEntry[] = [];

  /** Adds a tool; its header parameters are read from its published `inputSchema` (a bad declaration fails the boot). */
  addTool(tool: Omit<ToolEntry, 'headerParameters'>): void {
    const entry: ToolEntry = { ...tool, headerParameters: toolHeaderParameters(tool) };
    this.claim(this.toolsByName, entry.name, entry, 'tool');
    this.tools = sortByName(this.toolsByName);
    this.modelTools = this.tools.filter((tool) => !appOnly(tool));
    if (entry.task) this.hasTaskTools = true;
  }

  addResource(entry: ResourceEntry): void {
    this.claim(this.resourceNames, entry.name, entry, 'resource');
    this.claim(this.resourcesByUri, entry.definition.uri, entry, 'resource URI');
    this.resources = sortByName(this.resourcesByUri);
  }

  addTemplate(entry: ResourceTemplateEntry): void {
    this.claim(this.resourceNames, entry.name, entry, 'resource');
    this.claim(this.templatesByName, entry.name, entry, 'resource template');
    this.templates = sortByName(this.templatesByName);
  }

  addPrompt(entry: PromptEntry): void {
    this.claim(this.promptsByName, entry.name, entry, 'prompt');
    this.prompts = sortByName(this.promptsByName);
  }

  addCompletion(key: string, entry: CompletionEntry): void {
    this.claim(this.completionsByKey, key, entry, 'completion');
  }

  tool(name: string): ToolEntry | undefined {
    return this.toolsByName.get(name);
  }

  prompt(name: string): PromptEntry | undefined {
    return this.promptsByName.get(name);
  }

  resource(uri: string): ResourceEntry | undefined {
    return this.resourcesByUri.get(uri);
  }

  templateByUri(uriTemplate: string): ResourceTemplateEntry | undefined {
    return this.templates.find((t) => t.definition.uriTemplate === uriTemplate);
  }

  /** The first template (in name order) that matches a concrete URI, with its variables. */
  matchTemplate(uri: string): { entry: ResourceTemplateEntry; variables: Record<string, string> } | undefined {
    for (const entry of this.templates) {
      const match = entry.template.match(uri);
      if (match) {
        // Template expansion percent-encodes values; the handler gets them decoded.
        const variables = Object.fromEntries(
          Object.entries(match).map(([key, value]) => [key, decode(Array.isArray(value) ? value.join(',') : value)]),
        );
        return { entry, variables };
      }
    }
    return undefined;
  }

  completion(key: string): CompletionEntry | undefined {
    return this.completionsByKey.get(key);
  }

  private claim<T extends { source: string }>(map: Map<string, T>, key: string, entry: T, kind: string): void {
    const existing = map.get(key);
    if (existing) {
      throw new Error(`Duplicate MCP ${kind} "${key}": declared by ${existing.source} and by ${entry.source}`);
    }
    map.set(key, entry);
  }
}

function toolHeaderParameters(tool: Omit<ToolEntry, 'headerParameters'>): ToolEntry['headerParameters'] {
  try {
    return headerParametersOf(tool.definition.inputSchema);
  } catch (error) {
    throw new Error(`${tool.source} (tool "${tool.name}"): ${(error as Error).message}`);
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The order every list is served in: by name, code unit by code unit (deterministic pages). */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sortByName<T extends { name: string }>(map: Map<string, T>): T[] {
  return [...map.values()].sort(byName);
}

export function completionKey(ref: { type: 'prompt' | 'template'; name: string }, argument: string): string {
  return `${ref.type}:${ref.name}#${argument}`;
}

/** Whether a tool is for app views only (`_meta.ui.visibility` without `model`). */
function appOnly(tool: Pick<ToolEntry, 'definition'>): boolean {
  const ui = tool.definition._meta?.ui as { visibility?: unknown } | undefined;
  return Array.isArray(ui?.visibility) && !ui.visibility.includes('model');
}
