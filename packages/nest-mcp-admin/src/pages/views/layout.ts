import { createHash } from 'node:crypto';
import { html, raw, type HtmlValue, type SafeHtml } from './html.js';

/** The panel's only style sheet, inline and allowed by its hash in the Content-Security-Policy. */
const CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;background:#f4f6f9}
header{display:flex;align-items:center;justify-content:space-between;padding:.75rem 1.5rem;background:#1d2433;color:#fff}
header a{color:#fff;text-decoration:none;font-weight:600}
header form{display:inline;margin:0}
header .who{font-size:.9rem;opacity:.85;margin-right:.75rem}
header nav{display:inline}
header nav a{font-weight:400;margin-left:1.25rem}
main{max-width:56rem;margin:2rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #dfe3ea;border-radius:8px;padding:1.5rem;margin-bottom:1.25rem}
h1{font-size:1.4rem;margin:0 0 1rem}
h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
p.lead{margin-top:0;color:#4a5568}
dl.facts{display:grid;grid-template-columns:10rem 1fr;gap:.4rem 1rem;margin:0}
dl.facts dt{color:#4a5568}
dl.facts dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.45rem .6rem;border-bottom:1px solid #e6e9ef;overflow-wrap:anywhere}
th{color:#4a5568;font-weight:600;white-space:nowrap}
table.args{border:1px solid #e6e9ef;border-radius:6px}
table.args table.args{margin:0}
.value{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;white-space:pre-wrap}
.reference{margin-top:.25rem;font-weight:600}
.muted{color:#718096}
.summary{font-size:.85rem;overflow-wrap:anywhere}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600;background:#e2e8f0;white-space:nowrap}
.badge.pending{background:#fef3c7;color:#92400e}.badge.executed{background:#d1fae5;color:#065f46}
.badge.denied,.badge.failed,.badge.expired{background:#fee2e2;color:#991b1b}
.warn{border-left:4px solid #d97706;background:#fffbeb;padding:.75rem 1rem;border-radius:4px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border-radius:6px;border:1px solid #cbd2dc;background:#fff;color:#1d2433;cursor:pointer}
button.primary{background:#b91c1c;border-color:#b91c1c;color:#fff}
button.link{background:none;border:none;color:#fff;padding:0;font-weight:400;text-decoration:underline}
button.small{padding:.3rem .8rem;font-size:.9rem;white-space:nowrap}
td form{margin:0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password]{width:100%;font:inherit;padding:.55rem .7rem;border:1px solid #cbd2dc;border-radius:6px}
.error{color:#991b1b;background:#fee2e2;border-radius:6px;padding:.6rem .9rem}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(CSS).digest('base64')}`;

/** Headers of every answer under the pages' path (pages, redirects, errors). */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self'; form-action 'self'; ` + `frame-ancestors 'none'; base-uri 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

/** Where a page is shown: the pages' path and name, and who is signed in (if anyone). */
export interface PageFrame {
  /** The mount path, e.g. `/admin`. */
  base: string;
  /** The name in the header and titles, e.g. `Billing admin`. */
  title: string;
  /** The signed-in person, when there is one. */
  viewer?: Viewer;
}

export interface Viewer {
  email?: string;
  name: string;
  /** The CSRF token every form of the page carries (`_csrf`). */
  csrfToken: string;
  /** Where "Sign out" posts to, when the identity has one. */
  signOutPath?: string;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function layout(frame: PageFrame, title: string, body: HtmlValue): string {
  const { base, viewer } = frame;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · ${frame.title}</title>
<style>${raw(CSS)}</style>
</head>
<body>
<header>
  <span><a href="${base}/approvals">${frame.title}</a>${viewer ? html`<nav><a href="${base}/approvals">Approvals</a><a href="${base}/tasks">Tasks</a></nav>` : ''}</span>
  ${
    viewer
      ? html`<span><span class="who">${viewer.name}${viewer.email ? html` &lt;${viewer.email}&gt;` : ''}</span>${
          viewer.signOutPath
            ? html`<form method="post" action="${viewer.signOutPath}">${csrfField(viewer.csrfToken)}<button class="link" type="submit">Sign out</button></form>`
            : ''
        }</span>`
      : ''
  }
</header>
<main>
${body}
</main>
</body>
</html>
`.value;
}
