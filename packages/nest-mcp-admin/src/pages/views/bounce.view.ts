import { html } from './html.js';

/** Re-opens `path` from this origin (a same-origin navigation carries SameSite=Strict cookies). */
export function bouncePage(path: string, title: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${path}"><title>Opening…</title></head>
<body><p><a href="${path}">Continue to ${title}</a></p></body></html>
`.value;
}
