import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { confirmationOf } from '../confirmation/confirmation.interceptor.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { MCP_EXTENSION_POINT_NAMES, MCP_EXTENSION_POINTS } from './mcp-extension-points.js';
import type { McpExtensionPointName } from './mcp-extension.types.js';

/** Injection token of the extension points the application gave (the others are defaults). */
export const MCP_GIVEN_EXTENSION_POINTS = Symbol('MCP_GIVEN_EXTENSION_POINTS');

/**
 * Says at boot which implementation fills each extension point, and stops the boot when one the
 * configuration needs is missing: a reader of the log knows whether audit, idempotency or
 * approvals are on without reading the module wiring.
 */
@Injectable()
export class McpExtensionPointsReport {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly registry: McpRegistry,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_GIVEN_EXTENSION_POINTS) private readonly given: McpExtensionPointName[],
  ) {}

  /** Called once every tool is registered (the needs depend on the tools). */
  check(): void {
    this.assertApprovalLinks();
    this.assertTasks();
    this.logger.log(`Extension points: ${MCP_EXTENSION_POINT_NAMES.map((name) => `${name} = ${this.describe(name)}`).join('; ')}`);
  }

  /** One line per point: the implementation's class, and what a default means. */
  describe(name: McpExtensionPointName): string {
    const { token, fallbackNote } = MCP_EXTENSION_POINTS[name];
    const instance = this.resolve(token);
    if (!instance) return fallbackNote;
    const type = instance.constructor;
    const implementation = type && type !== Object ? type.name : 'a value';
    return this.given.includes(name) ? implementation : `${implementation} (default: ${fallbackNote})`;
  }

  /**
   * A tool that only a person on the approval page may confirm can never run over MCP without
   * approval links: a configuration mistake to report now, not to every caller later.
   */
  private assertApprovalLinks(): void {
    if (this.options.destructiveTools !== 'confirm' || this.resolve(MCP_EXTENSION_POINTS.approvalLinks.token)) return;
    const linkOnly = this.registry.tools
      .filter((tool) => tool.annotations.destructiveHint && confirmationOf(tool, this.options) === 'link')
      .map((tool) => tool.name);
    if (!linkOnly.length) return;
    throw new Error(
      `McpModule: ${linkOnly.join(', ')} can only be confirmed on an approval page, and no approval links are configured. ` +
        `Give McpModule.forRoot({ approvalLinks: { useExisting: YourApprovalLinks }, imports: [YourApprovalsModule] }), ` +
        `or set destructiveTools: 'refuse' to refuse those tools over MCP.`,
    );
  }

  /**
   * Tasks that could not run as declared: a shared task store with callers that live in one
   * process's memory, or a background tool whose queued answer would name no job tool.
   */
  private assertTasks(): void {
    const taskTools = this.registry.tools.filter((tool) => tool.task);
    if (!taskTools.length) return;
    if (this.given.includes('taskStore') && !this.given.includes('taskCallers')) {
      throw new Error(
        'McpModule: a taskStore is given but no taskCallers: a task stored for every replica must be able to act as its caller on any of them. ' +
          'Give McpModule.forRoot({ taskCallers: { useExisting: YourTaskCallers } }) (docs/tasks.md in @nest-mcp/core).',
      );
    }
    const background = taskTools.filter((tool) => tool.task === 'background').map((tool) => tool.name);
    const jobTool = this.options.tasks.jobTool;
    if (background.length && (!jobTool || !this.registry.tool(jobTool))) {
      throw new Error(
        `McpModule: ${background.join(', ')} ${background.length > 1 ? 'are' : 'is'} declared task: 'background', so clients without the tasks extension ` +
          `get a queued job to follow with a job tool, but ${jobTool ? `tasks.jobTool names "${jobTool}", which is not a registered tool` : 'tasks.jobTool is not set'}. ` +
          'Declare a read-only tool that returns McpTasks.job(job_id, request) and name it in McpModule.forRoot({ tasks: { jobTool } }) (docs/tasks.md in @nest-mcp/core).',
      );
    }
  }

  private resolve(token: symbol): unknown {
    try {
      return this.moduleRef.get(token, { strict: true });
    } catch {
      return undefined;
    }
  }
}
