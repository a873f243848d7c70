import { html, type SafeHtml } from './html.js';

/** Limits for arguments written by an agent: the page stays readable whatever it sent. */
const MAX_DEPTH = 6;
const MAX_ENTRIES = 200;
const MAX_STRING = 4000;

/**
 * Renders a tool call's arguments as nested tables (objects) and lists (arrays); every value
 * escaped. `references`: what top-level id values point at (see ApprovalReferences), shown under the id.
 */
export function argumentsView(args: Record<string, unknown>, references?: ReadonlyMap<string, string>): SafeHtml {
  const entries = Object.entries(args ?? {});
  if (!entries.length) return html`<p class="muted">No arguments.</p>`;
  return objectTable(args, 0, references);
}

function objectTable(value: Record<string, unknown>, depth: number, references?: ReadonlyMap<string, string>): SafeHtml {
  const entries = Object.entries(value);
  const shown = entries.slice(0, MAX_ENTRIES);
  return html`<table class="args"><tbody>${shown.map(
    ([key, item]) => html`<tr><th scope="row">${key}</th><td>${valueView(item, depth + 1)}${referenceView(item, references)}</td></tr>`,
  )}${entries.length > shown.length ? html`<tr><td colspan="2" class="muted">… ${entries.length - shown.length} more not shown</td></tr>` : ''}</tbody></table>`;
}

function referenceView(value: unknown, references?: ReadonlyMap<string, string>): SafeHtml | string {
  const described = typeof value === 'string' ? references?.get(value.toLowerCase()) : undefined;
  return described ? html`<div class="reference">${described}</div>` : '';
}

function valueView(value: unknown, depth: number): SafeHtml {
  if (value === null || value === undefined) return html`<span class="muted">(none)</span>`;
  if (typeof value === 'string') {
    const cut = value.length > MAX_STRING;
    return html`<span class="value">${cut ? value.slice(0, MAX_STRING) : value}</span>${cut ? html` <span class="muted">… ${value.length - MAX_STRING} more characters</span>` : ''}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return html`<span class="value">${String(value)}</span>`;
  if (depth > MAX_DEPTH) return html`<span class="value">${truncate(JSON.stringify(value))}</span>`;
  if (Array.isArray(value)) {
    if (!value.length) return html`<span class="muted">(empty list)</span>`;
    const shown = value.slice(0, MAX_ENTRIES);
    return html`<ol>${shown.map((item) => html`<li>${valueView(item, depth + 1)}</li>`)}</ol>${value.length > shown.length ? html`<span class="muted">… ${value.length - shown.length} more not shown</span>` : ''}`;
  }
  if (typeof value === 'object') {
    if (!Object.keys(value).length) return html`<span class="muted">(empty)</span>`;
    return objectTable(value as Record<string, unknown>, depth);
  }
  return html`<span class="value">${String(value)}</span>`;
}

function truncate(text: string | undefined): string {
  const value = text ?? '';
  return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
}

/** A one-line summary of the arguments for lists: a few top-level values, each cut short. */
export function argumentsSummary(args: Record<string, unknown>, maxEntries = 3, maxValue = 40): string {
  const entries = Object.entries(args ?? {});
  const parts = entries.slice(0, maxEntries).map(([key, value]) => {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    return `${key}: ${text.length > maxValue ? `${text.slice(0, maxValue)}…` : text}`;
  });
  return parts.join(' · ') + (entries.length > maxEntries ? ` · +${entries.length - maxEntries} more` : '');
}
