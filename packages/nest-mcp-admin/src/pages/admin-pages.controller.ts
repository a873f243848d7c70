import { All, Get, Inject, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApprovalReferences } from '../approvals/approval-references.js';
import { UUID } from '../approvals/approval-row.js';
import { McpApprovals } from '../approvals/mcp-approvals.js';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { AdminTasks } from '../tasks/admin-tasks.js';
import { formField, sendPage, visitOf, type AdminVisit } from './admin-http.js';
import { AdminExceptionFilter } from './admin-exception.filter.js';
import { AdminPageGuard } from './admin-page.guard.js';
import { McpAdminPages } from './mcp-admin-pages.js';
import type { PageFrame, Viewer } from './views/layout.js';
import { approvalDetailPage, approvalsListPage, messagePage, outcomePage } from './views/pages.js';
import { tasksListPage } from './views/tasks.view.js';

const NOT_FOUND_MESSAGE =
  'There is no approval with this link that you can decide. It may belong to a workspace where you are not an approver, or the link may be mistyped.';

/**
 * The admin pages (server-rendered HTML): the pending approvals of the signed-in person's tenants,
 * and one approval with Continue / Cancel; the running and recent tasks of the tenants where they
 * may watch tasks, with Cancel. Mounted at the module's `path` (`McpAdminModule` gives this class
 * its `@Controller(path)` on a subclass of its own); the person comes from the `identity` option.
 */
@UseGuards(AdminPageGuard)
@UseFilters(AdminExceptionFilter)
export class AdminPagesController {
  constructor(
    private readonly approvals: McpApprovals,
    private readonly references: ApprovalReferences,
    private readonly tasks: AdminTasks,
    private readonly pages: McpAdminPages,
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
  ) {}

  @Get()
  home(@Res() res: Response): void {
    res.redirect(303, `${this.options.path}/approvals`);
  }

  @Get('approvals')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { visit, frame } = this.visit(req);
    sendPage(res, 200, approvalsListPage(frame, await this.approvals.listPending(visit.person.id)));
  }

  @Get('approvals/:id')
  async detail(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { visit, frame } = this.visit(req);
    const approval = UUID.test(id) ? await this.approvals.find(id.toLowerCase(), visit.person.id) : undefined;
    if (!approval) {
      sendPage(res, 404, messagePage(frame, 'Approval not found', NOT_FOUND_MESSAGE));
      return;
    }
    if (approval.status === 'expired') {
      sendPage(res, 410, outcomePage(frame, 'expired', approval));
      return;
    }
    sendPage(res, 200, approvalDetailPage(frame, approval, await this.references.of(approval)));
  }

  @Post('approvals/:id/decision')
  async decide(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { visit, frame } = this.visit(req);
    const decision = formField(req, 'decision');
    if (decision !== 'continue' && decision !== 'cancel') {
      sendPage(
        res,
        400,
        messagePage(frame, 'Choose Continue or Cancel', 'The form did not say what to do. Nothing was done.', {
          href: `${this.options.path}/approvals/${encodeURIComponent(id)}`,
          label: '← Back to the approval',
        }),
      );
      return;
    }
    const outcome = UUID.test(id)
      ? await this.approvals.decide(id.toLowerCase(), visit.person.id, decision, req)
      : ({ kind: 'not_found' } as const);
    switch (outcome.kind) {
      case 'not_found':
        sendPage(res, 404, messagePage(frame, 'Approval not found', NOT_FOUND_MESSAGE));
        return;
      case 'already_decided':
        sendPage(res, 409, outcomePage(frame, 'already_decided', outcome.approval));
        return;
      case 'expired':
        sendPage(res, 410, outcomePage(frame, 'expired', outcome.approval));
        return;
      default:
        sendPage(res, 200, outcomePage(frame, outcome.kind, outcome.approval));
    }
  }

  @Get('tasks')
  async taskList(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { visit, frame } = this.visit(req);
    sendPage(res, 200, tasksListPage(frame, await this.tasks.list(visit.person.id)));
  }

  /** Cancel, then the list with what happened (a page of its own, not a redirect: the outcome is shown once). */
  @Post('tasks/:id/cancel')
  async cancelTask(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { visit, frame } = this.visit(req);
    const outcome = await this.tasks.cancel(id, visit.person);
    if (outcome.kind === 'not_found') {
      sendPage(
        res,
        404,
        messagePage(
          frame,
          'Task not found',
          'There is no task with this id that you can cancel. It may belong to a workspace where you may not watch tasks, or it expired.',
          { href: `${this.options.path}/tasks`, label: '← All tasks' },
        ),
      );
      return;
    }
    sendPage(res, outcome.kind === 'cancelled' ? 200 : 409, tasksListPage(frame, await this.tasks.list(visit.person.id), outcome));
  }

  /** Anything else under the path: a 404 page (after sign-in, so it tells nothing to strangers). */
  @All('*rest')
  notFound(@Req() req: Request, @Res() res: Response): void {
    sendPage(res, 404, messagePage(this.visit(req).frame, 'Not found', 'There is no such page here.'));
  }

  private visit(req: Request): { visit: AdminVisit; frame: PageFrame & { viewer: Viewer } } {
    const visit = visitOf(req);
    if (!visit) throw new Error('AdminPageGuard did not run');
    const frame = this.pages.of(req);
    return { visit, frame: frame as PageFrame & { viewer: Viewer } };
  }
}
