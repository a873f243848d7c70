/**
 * A tiny HTML template tag that escapes every interpolated value unless it is already `SafeHtml`
 * (the result of another `html` template). Values written by agents or third parties therefore
 * render as text, never as markup.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/**
 * Bidirectional-text controls (embeddings, overrides, isolates, marks): they can make a name read
 * differently from what it is (e.g. "\u202Efdp.exe" shows as "exe.pdf"), so an approver could be
 * shown a disguised name. They are rendered visibly as `\u202E`-style escapes instead.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function escapeHtml(value: string): string {
  return value
    .replace(/[&<>"'`]/g, (c) => ESCAPES[c])
    .replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}

/** Trusted markup, for constants only (never for data). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
