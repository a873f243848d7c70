import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CapabilityAccess } from '../access/capability-access.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import type { McpViewOptions } from '../options/mcp-view.options.js';
import { byName, McpRegistry } from '../registry/mcp.registry.js';
import { MCP_APP_MIME_TYPE } from './apps-extension.js';
import { assertViewHtml, assertViewShape, assertViewUri } from './view-checks.js';
import { viewCspOf, withCspMeta, type ViewCsp } from './view-csp.js';

/** One declared view: what `resources/list` shows and `resources/read` serves. */
export interface ViewEntry {
  uri: string;
  /** The URI without its scheme (`billing/customer-balance`): the resource's name. */
  name: string;
  title?: string;
  description?: string;
  csp: ViewCsp;
  prefersBorder?: boolean;
  /** Where it was declared, for boot errors. */
  source: string;
  html: McpViewOptions['html'];
  /** The document as served (its CSP written in), once loaded at bootstrap. */
  document?: string;
  /** The tools that link the view: a caller sees it when it can see one of them. */
  tools: string[];
}

/**
 * The app views (docs/app-views.md): declared by tools (`@McpTool({ view })`, found by the
 * explorer) and by the module (`views`), loaded and checked once, at bootstrap, and served as
 * `ui://` resources to the callers who can see a tool that links them (a view no tool links, to every caller).
 */
@Injectable()
export class McpViews implements OnApplicationBootstrap {
  private readonly byUri = new Map<string, ViewEntry>();
  /** Links by URI, checked at bootstrap (a tool may name a view declared after it). */
  private readonly links: { uri: string; tool: string; source: string }[] = [];
  /** Every view, by name: sorted once, at bootstrap, when the last one is declared. */
  private sorted: ViewEntry[] = [];

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly registry: McpRegistry,
    private readonly access: CapabilityAccess,
  ) {
    for (const view of options.views) this.declare(view, 'McpModule option views');
  }

  /** Whether the server has any view: the extension is then declared to clients. */
  get any(): boolean {
    return this.byUri.size > 0;
  }

  /** Every view, by name (once the application has bootstrapped). */
  get all(): readonly ViewEntry[] {
    return this.sorted;
  }

  declare(view: McpViewOptions, source: string): void {
    assertViewShape(view, source);
    const existing = this.byUri.get(view.uri);
    if (existing) throw new Error(`Duplicate MCP view "${view.uri}": declared by ${existing.source} and by ${source}`);
    this.byUri.set(view.uri, {
      uri: view.uri,
      name: view.uri.slice('ui://'.length),
      ...(view.title !== undefined ? { title: view.title } : {}),
      ...(view.description !== undefined ? { description: view.description } : {}),
      csp: viewCspOf(view.csp),
      ...(view.prefersBorder !== undefined ? { prefersBorder: view.prefersBorder } : {}),
      source,
      html: view.html,
      tools: [],
    });
  }

  /** A tool's `view` option: the view it declares, or the URI of one declared elsewhere. Returns the URI. */
  link(view: McpViewOptions | string, tool: string, source: string): string {
    if (typeof view === 'string') assertViewUri(view, source);
    else this.declare(view, source);
    const uri = typeof view === 'string' ? view : view.uri;
    this.links.push({ uri, tool, source });
    return uri;
  }

  view(uri: string): ViewEntry | undefined {
    return this.byUri.get(uri);
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const { uri, tool, source } of this.links) {
      const view = this.byUri.get(uri);
      if (!view)
        throw new Error(`${source}: view ${uri} is not declared: declare it in a tool's view option or in the McpModule option views`);
      if (!view.tools.includes(tool)) view.tools.push(tool);
    }
    const confirmation = this.options.confirmationView;
    if (confirmation !== undefined && !this.byUri.has(confirmation)) {
      throw new Error(`McpModule option confirmationView: ${JSON.stringify(confirmation)} is not a declared view (declare it in views)`);
    }
    for (const view of this.byUri.values()) {
      const resource = this.registry.resource(view.uri);
      if (resource) throw new Error(`${view.source}: the view ${view.uri} has the URI of the resource ${resource.source}`);
      const html = typeof view.html === 'function' ? await loaded(view) : view.html;
      assertViewHtml(html, view.uri, view.csp, view.source);
      view.document = withCspMeta(html, view.csp);
    }
    this.sorted = [...this.byUri.values()].sort(byName);
  }

  /** The views the caller may see: linked by a tool it can see, or by no tool. */
  visible(context: McpRequestContext): ViewEntry[] {
    return this.all.filter((view) => this.canSee(view, context));
  }

  /** The view a `resources/read` names, once the caller may see it (else the refusal of a tool that links it). */
  async readable(view: ViewEntry, context: McpRequestContext): Promise<ViewEntry> {
    if (this.canSee(view, context)) return view;
    await this.access.assert('tool', this.registry.tool(view.tools[0])!, context);
    return view;
  }

  /** The `resources/list` entry. */
  resource(view: ViewEntry): Resource {
    return {
      uri: view.uri,
      name: view.name,
      ...(view.title !== undefined ? { title: view.title } : {}),
      ...(view.description !== undefined ? { description: view.description } : {}),
      mimeType: MCP_APP_MIME_TYPE,
      _meta: { ui: uiMeta(view) },
    };
  }

  /** The `resources/read` answer. */
  contents(view: ViewEntry): ReadResourceResult['contents'] {
    return [{ uri: view.uri, mimeType: MCP_APP_MIME_TYPE, text: view.document!, _meta: { ui: uiMeta(view) } }];
  }

  private canSee(view: ViewEntry, context: McpRequestContext): boolean {
    if (view.tools.length === 0) return true;
    return view.tools.some((name) => {
      const tool = this.registry.tool(name);
      return tool !== undefined && this.access.allows('tool', tool, context);
    });
  }
}

function uiMeta(view: ViewEntry): Record<string, unknown> {
  return { csp: view.csp, ...(view.prefersBorder !== undefined ? { prefersBorder: view.prefersBorder } : {}) };
}

async function loaded(view: ViewEntry): Promise<unknown> {
  try {
    return await (view.html as () => string | Promise<string>)();
  } catch (error) {
    throw new Error(`${view.source}: the html of the view ${view.uri} failed to load: ${(error as Error).message}`);
  }
}
