import type { AdminTaskView } from '../../tasks/admin-tasks.js';
import { argumentsSummary } from './arguments.view.js';
import { html, type SafeHtml } from './html.js';
import { csrfField, layout, type PageFrame, type Viewer } from './layout.js';
import { when } from './pages.js';

const STATUS_LABEL: Record<AdminTaskView['status'], string> = {
  working: 'running',
  input_required: 'waiting for input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The badge class: the approval pages' colours (pending amber, done green, refused red). */
const STATUS_CLASS: Record<AdminTaskView['status'], string> = {
  working: 'pending',
  input_required: 'pending',
  completed: 'executed',
  failed: 'failed',
  cancelled: 'denied',
};

function badge(task: AdminTaskView): SafeHtml {
  const label = task.status === 'working' && !task.startedAt ? 'queued' : STATUS_LABEL[task.status];
  return html`<span class="badge ${STATUS_CLASS[task.status]}">${label}</span>`;
}

/** "4.2 s", "3 min 05 s", "1 h 02 min". */
export function duration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 60_000) return `${(Math.max(ms, 0) / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(seconds / 3600)} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')} min`;
}

function who(task: AdminTaskView): SafeHtml {
  const person = task.requestedBy
    ? html`${task.requestedBy.name}${task.requestedBy.email ? html` <span class="muted">&lt;${task.requestedBy.email}&gt;</span>` : ''}`
    : html`<span class="muted">(unknown)</span>`;
  const via =
    task.channel === 'api' ? 'REST API' : task.client ? `${task.client.name}${task.client.version ? ` ${task.client.version}` : ''}` : '';
  return html`${person}${via ? html`<div class="summary muted">via ${via}</div>` : ''}`;
}

function row(base: string, viewer: Viewer, task: AdminTaskView): SafeHtml {
  return html`<tr data-task-id="${task.id}">
      <td><strong>${task.tool.title}</strong> <span class="muted">(${task.tool.name})</span><div class="summary muted">${argumentsSummary(task.arguments)}</div></td>
      <td>${task.workspace.name}</td>
      <td>${who(task)}</td>
      <td>${badge(task)}${task.statusMessage ? html`<div class="summary">${task.statusMessage}</div>` : ''}</td>
      <td>${when(task.createdAt)}</td>
      <td>${duration(task.durationMs)}</td>
      <td>${
        task.active
          ? html`<form method="post" action="${base}/tasks/${task.id}/cancel">${csrfField(viewer.csrfToken)}<button class="small" type="submit">Cancel</button></form>`
          : ''
      }</td>
    </tr>`;
}

function table(base: string, viewer: Viewer, tasks: AdminTaskView[]): SafeHtml {
  return html`<table>
    <thead><tr><th>Task</th><th>Workspace</th><th>Requested by</th><th>Status</th><th>Queued</th><th>Duration</th><th></th></tr></thead>
    <tbody>${tasks.map((task) => row(base, viewer, task))}</tbody>
  </table>`;
}

/**
 * The tasks page: what runs now in the person's workspaces (with Cancel) and what ran lately.
 * `notice`: the outcome of a Cancel just chosen.
 */
export function tasksListPage(
  frame: PageFrame & { viewer: Viewer },
  tasks: AdminTaskView[],
  notice?: { kind: 'cancelled' | 'already_finished'; task: AdminTaskView },
): string {
  const active = tasks.filter((task) => task.active);
  const finished = tasks.filter((task) => !task.active);
  const { base, viewer } = frame;
  return layout(
    frame,
    'Tasks',
    html`<div class="card">
  <h1>Tasks</h1>
  <p class="lead">Long work agents and API clients started in the workspaces where you may watch tasks. Cancel stops a task: nothing it did is kept.</p>
  ${
    notice
      ? html`<p class="warn" role="status">${
          notice.kind === 'cancelled'
            ? html`Cancelled: ${notice.task.tool.title}${notice.task.requestedBy ? html` for ${notice.task.requestedBy.name}` : ''}. Nothing it did was kept.`
            : html`${notice.task.tool.title} had already finished (${STATUS_LABEL[notice.task.status]}): nothing was cancelled.`
        }</p>`
      : ''
  }
  <h2>Running and queued</h2>
  ${active.length ? table(base, viewer, active) : html`<p class="muted">Nothing is running.</p>`}
  <h2>Recent</h2>
  ${finished.length ? table(base, viewer, finished) : html`<p class="muted">No task finished lately.</p>`}
  <p><a href="${base}/tasks">Refresh</a></p>
</div>`,
  );
}
