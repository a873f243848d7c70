import type { ApprovalView } from '../../options/approval.view.js';
import { argumentsSummary, argumentsView } from './arguments.view.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';
import { csrfField, layout, type PageFrame, type Viewer } from './layout.js';

export function when(date: Date | string | undefined): string {
  if (!date) return '';
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? '' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function person(p: { name: string; email?: string } | undefined): SafeHtml | string {
  return p ? html`${p.name}${p.email ? html` <span class="muted">&lt;${p.email}&gt;</span>` : ''}` : '';
}

/**
 * The client as it named itself, and the token it called with. A 2025-era client names itself
 * only in `initialize`: stream mode's session keeps that name, the stateless default keeps it per
 * caller (`clientInfoStore`); a client that never named itself is "(unnamed client)".
 */
function client(c: ApprovalView['client']): SafeHtml {
  const via = c.credential ? html` <span class="muted">· ${c.credential}</span>` : '';
  if (!c.name) return html`<span class="muted">(unnamed client)</span>${via}`;
  return html`${c.name}${c.version ? html` <span class="muted">${c.version}</span>` : ''}${via}`;
}

const STATUS_LABEL: Record<ApprovalView['status'], string> = {
  pending: 'waiting for a decision',
  executed: 'approved, ran',
  failed: 'approved, ran and failed',
  denied: 'cancelled',
  expired: 'expired',
};

function badge(status: ApprovalView['status']): SafeHtml {
  return html`<span class="badge ${status}">${STATUS_LABEL[status]}</span>`;
}

export function approvalsListPage(frame: PageFrame & { viewer: Viewer }, approvals: ApprovalView[]): string {
  return layout(
    frame,
    'Pending approvals',
    html`<div class="card">
  <h1>Pending approvals</h1>
  ${
    approvals.length
      ? html`<p class="lead">Actions agents asked to perform in your workspaces. Nothing runs until you choose Continue.</p>
  <table>
    <thead><tr><th>Action</th><th>Workspace</th><th>Requested by</th><th>Client</th><th>Requested</th><th>Expires</th></tr></thead>
    <tbody>${approvals.map(
      (a) => html`<tr>
      <td><a href="${frame.base}/approvals/${a.id}">${a.tool.title || a.tool.name}</a><div class="summary muted">${argumentsSummary(a.arguments)}</div></td>
      <td>${a.workspace.name}</td>
      <td>${person(a.requestedBy)}</td>
      <td>${client(a.client)}</td>
      <td>${when(a.createdAt)}</td>
      <td>${when(a.expiresAt)}</td>
    </tr>`,
    )}</tbody>
  </table>`
      : html`<p class="lead">Nothing is waiting for your approval.</p>`
  }
</div>`,
  );
}

function facts(a: ApprovalView): SafeHtml {
  return html`<dl class="facts">
    <dt>Status</dt><dd>${badge(a.status)}</dd>
    <dt>Client</dt><dd>${client(a.client)}</dd>
    <dt>Action</dt><dd><strong>${a.tool.title || a.tool.name}</strong> <span class="muted">(${a.tool.name})</span></dd>
    <dt>Workspace</dt><dd>${a.workspace.name}${a.workspace.slug ? html` <span class="muted">(${a.workspace.slug})</span>` : ''}</dd>
    <dt>Requested by</dt><dd>${person(a.requestedBy)}</dd>
    <dt>Requested</dt><dd>${when(a.createdAt)}</dd>
    <dt>${a.status === 'pending' ? 'Expires' : 'Link valid until'}</dt><dd>${when(a.expiresAt)}</dd>
    ${a.decidedBy ? html`<dt>Decided by</dt><dd>${person(a.decidedBy)} at ${when(a.decidedAt)}</dd>` : ''}
  </dl>`;
}

/** The detail page: what would run, and (while pending) Continue / Cancel. */
export function approvalDetailPage(
  frame: PageFrame & { viewer: Viewer },
  a: ApprovalView,
  references?: ReadonlyMap<string, string>,
): string {
  const pending = a.status === 'pending';
  return layout(
    frame,
    a.tool.title || a.tool.name,
    html`<div class="card">
  <h1>${pending ? html`Approve “${a.tool.title || a.tool.name}”?` : html`Approval: ${a.tool.title || a.tool.name}`}</h1>
  <p class="lead">${client(a.client)} asked to run this on behalf of ${a.requestedBy.name}.</p>
  ${facts(a)}
  ${a.tool.summary ? html`<h2>What it does</h2><p>${a.tool.summary}</p>` : ''}
  <h2>Arguments</h2>
  <p class="muted">As the agent sent them, with what the ids refer to in ${a.workspace.name}. Check them: they were written by an AI agent, not by a person.</p>
  ${argumentsView(a.arguments, references)}
  ${
    pending
      ? html`<p class="warn">Continue runs this action now, once, as you. Cancel refuses it; nothing is done.</p>
  <form method="post" action="${frame.base}/approvals/${a.id}/decision">
    ${csrfField(frame.viewer.csrfToken)}
    <div class="actions">
      <button class="primary" type="submit" name="decision" value="continue">Continue</button>
      <button type="submit" name="decision" value="cancel">Cancel</button>
    </div>
  </form>`
      : resultSection(a)
  }
</div>
<p><a href="${frame.base}/approvals">← All pending approvals</a></p>`,
  );
}

/** The page after a Continue / Cancel click, or for a link that can no longer be decided. */
export function outcomePage(
  frame: PageFrame,
  kind: 'executed' | 'failed' | 'denied' | 'already_decided' | 'expired',
  a: ApprovalView,
): string {
  const title = a.tool.title || a.tool.name;
  const heading: Record<typeof kind, string> = {
    executed: `Done: ${title} ran`,
    failed: `${title} ran and failed`,
    denied: `Cancelled: ${title} did not run`,
    already_decided: 'Already decided: nothing was run again',
    expired: 'This approval link has expired',
  };
  const lead: Record<typeof kind, HtmlValue> = {
    executed: 'The action ran once, as you. The agent receives this result when it calls the tool again.',
    failed: 'The action ran once and reported an error; nothing else was tried. The agent receives this answer.',
    denied: 'Nothing was done. The agent is told that a person refused the action.',
    already_decided: html`${a.decidedBy ? html`${a.decidedBy.name} decided this at ${when(a.decidedAt)}` : 'Someone decided this already'} (${STATUS_LABEL[a.status]}). A decision is final and runs the action at most once.`,
    expired: html`Nobody decided before ${when(a.expiresAt)}, so nothing was done. If the action is still wanted, ask the agent to request it again: it will get a new link.`,
  };
  return layout(
    frame,
    heading[kind],
    html`<div class="card">
  <h1>${heading[kind]}</h1>
  <p class="lead">${lead[kind]}</p>
  ${facts(a)}
  ${kind === 'expired' ? '' : resultSection(a)}
</div>
<p><a href="${frame.base}/approvals">← All pending approvals</a></p>`,
  );
}

/** A page with one message (not found, forbidden, error). */
export function messagePage(
  frame: PageFrame,
  title: string,
  message: HtmlValue,
  link: { href: string; label: string } = { href: `${frame.base}/approvals`, label: '← All pending approvals' },
): string {
  return layout(
    frame,
    title,
    html`<div class="card"><h1>${title}</h1><p class="lead">${message}</p></div><p><a href="${link.href}">${link.label}</a></p>`,
  );
}

interface Envelope {
  ok?: boolean;
  status?: string;
  data?: unknown;
  errors?: Array<{ code?: string; message?: string; field?: string }>;
}

/** The tool's answer: a CallToolResult whose first text is the JSON envelope, or the envelope itself. */
function envelopeOf(result: unknown): Envelope | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const r = result as { content?: Array<{ type?: string; text?: string }>; structuredContent?: unknown };
  if ('ok' in r || 'errors' in r) return r as Envelope;
  if (r.structuredContent && typeof r.structuredContent === 'object') return r.structuredContent;
  const text = r.content?.find((c) => c.type === 'text')?.text;
  if (text) {
    try {
      return JSON.parse(text) as Envelope;
    } catch {
      return { data: text };
    }
  }
  return undefined;
}

function resultSection(a: ApprovalView): SafeHtml | string {
  if (a.result === undefined || a.result === null) return '';
  const envelope = envelopeOf(a.result);
  if (!envelope) return '';
  return html`<h2>Result</h2>
  ${
    envelope.errors?.length
      ? html`<ul>${envelope.errors.map((e) => html`<li><strong>${e.code ?? 'error'}</strong>${e.field ? html` (${e.field})` : ''}: ${e.message ?? ''}</li>`)}</ul>`
      : ''
  }
  ${
    envelope.data !== undefined && envelope.data !== null
      ? typeof envelope.data === 'object' && !Array.isArray(envelope.data)
        ? argumentsView(envelope.data as Record<string, unknown>)
        : html`<pre class="value">${JSON.stringify(envelope.data, null, 2)}</pre>`
      : ''
  }`;
}
