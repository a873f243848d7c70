import type { DiscoverResult, InitializeResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { parseClientInfo } from '../protocol/client-info.js';
import { handshakeVersions, newestHandshakeVersion } from '../protocol/protocol-version.js';
import { StatelessClientInfo } from './stateless-client-info.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { TASKS_EXTENSION } from '../tasks/task-wire.js';
import { MCP_APPS_EXTENSION } from '../views/apps-extension.js';
import { McpViews } from '../views/mcp-views.js';
import { SkillsHandler } from '../skills/skills.handler.js';

/** `server/discover` (2026-07-28), `initialize` and `ping` (handshake era). */
@Injectable()
export class LifecycleHandler {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly clientInfo: StatelessClientInfo,
    private readonly registry: McpRegistry,
    private readonly views: McpViews,
    private readonly skills: SkillsHandler,
  ) {}

  discover(): DiscoverResult {
    // The tasks extension is offered when a tool can run as a task (docs/tasks.md).
    const extensions = this.registry.hasTaskTools ? { extensions: { [TASKS_EXTENSION]: {} } } : {};
    return {
      supportedVersions: this.options.supportedVersions,
      // The skills extension when a skill is served (docs/skills.md).
      capabilities: this.skills.declaredIn(
        withAppsExtension({ tools: {}, resources: {}, prompts: {}, completions: {}, ...extensions }, this.views),
      ),
      instructions: this.options.instructions,
    };
  }

  /**
   * Negotiation, not an error: a version outside the handshake era (2026-07-28, or one this
   * server does not speak) is answered with the newest handshake version enabled (docs/contract.md §2.4); the
   * client decides whether to go on.
   */
  async initialize(params: Record<string, unknown>, context: McpRequestContext): Promise<InitializeResult> {
    // A client that describes itself must do so within bounds, as in the 2026 envelope. Stream mode
    // keeps it in the session it opens; the stateless default, by caller, for the requests that
    // follow without a session (the `clientInfoStore` extension point).
    const clientInfo = parseClientInfo(params.clientInfo, 'params.clientInfo');
    if (clientInfo && !this.options.streams) await this.clientInfo.remember(context.httpRequest, clientInfo);
    const requested = params.protocolVersion;
    const versions = handshakeVersions(this.options);
    const protocolVersion =
      typeof requested === 'string' && versions.includes(requested) ? requested : (newestHandshakeVersion(this.options) ?? versions[0]);
    context.protocolVersion = protocolVersion;
    return {
      protocolVersion,
      capabilities: {
        tools: { listChanged: false },
        // Stream mode: subscriptions and log messages. No list changes: tools, resources and
        // prompts are found once, at bootstrap, and never change while the server runs.
        resources: { subscribe: !!this.options.streams, listChanged: false },
        prompts: { listChanged: false },
        completions: {},
        ...(this.options.streams ? { logging: {} } : {}),
        // MCP Apps exists in both eras (docs/app-views.md); declared when the server has a view.
        // The skills extension too (docs/skills.md).
        ...this.skills.declaredIn(withAppsExtension({}, this.views)),
      },
      serverInfo: this.options.serverInfo,
      instructions: this.options.instructions,
    };
  }

  ping(): Record<string, never> {
    return {};
  }
}

/** The capabilities with the MCP Apps extension added to their `extensions` when any app view exists. */
function withAppsExtension<T extends { extensions?: Record<string, object> }>(capabilities: T, views: McpViews): T {
  if (!views.any) return capabilities;
  return { ...capabilities, extensions: { ...capabilities.extensions, [MCP_APPS_EXTENSION]: {} } };
}
