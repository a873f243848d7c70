import type { McpViewCsp } from '../options/mcp-view.options.js';

/** A view's declared origins with the defaults applied: none. */
export type ViewCsp = Required<McpViewCsp>;

export function viewCspOf(csp: McpViewCsp | undefined): ViewCsp {
  return { connectDomains: [...(csp?.connectDomains ?? [])], resourceDomains: [...(csp?.resourceDomains ?? [])] };
}

/**
 * The Content-Security-Policy the layer writes into a view (the host enforces its own from
 * `_meta.ui.csp` as well): nothing by default (`default-src 'none'`), the view's inline script and
 * style (a view arrives as one document, so inline is how it carries code), `data:` images and
 * fonts, and only the declared origins beyond that. No frames, forms, nor `<base>`.
 */
export function contentSecurityPolicy(csp: ViewCsp): string {
  const resources = csp.resourceDomains.join(' ');
  const withResources = (...own: string[]) => [...own, ...(resources ? [resources] : [])].join(' ');
  return [
    "default-src 'none'",
    `script-src ${withResources("'unsafe-inline'")}`,
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources('data:')}`,
    `font-src ${withResources('data:')}`,
    `media-src ${withResources('data:')}`,
    `connect-src ${csp.connectDomains.length ? csp.connectDomains.join(' ') : "'none'"}`,
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The document with the policy as the first element of its `<head>` (a `<meta>` applies only to
 * what follows it), or before everything when it has no `<head>` tag (the browser then makes one).
 */
export function withCspMeta(html: string, csp: ViewCsp): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(csp)}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + meta + html.slice(doctype[0].length) : meta + html;
}
