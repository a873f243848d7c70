import type { McpToolVisibility, McpViewOptions } from '../options/mcp-view.options.js';
import type { ViewCsp } from './view-csp.js';

const VISIBILITIES: readonly McpToolVisibility[] = ['model', 'app'];

/** The shape of a declared view, before its HTML is loaded: the boot fails naming `source`. */
export function assertViewShape(view: McpViewOptions, source: string): void {
  if (typeof view !== 'object' || view === null)
    throw new Error(`${source}: a view is { uri: 'ui://…', html }, got ${JSON.stringify(view)}`);
  assertViewUri(view.uri, source);
  if (typeof view.html !== 'string' && typeof view.html !== 'function') {
    throw new Error(`${source}: the view ${view.uri} needs its html: the document as a string, or a function that returns it`);
  }
  for (const key of ['connectDomains', 'resourceDomains'] as const) {
    for (const origin of view.csp?.[key] ?? []) {
      if (!isDeclarableOrigin(origin)) {
        throw new Error(
          `${source}: csp.${key} of the view ${view.uri} lists ${JSON.stringify(origin)}: list origins only ` +
            "(scheme and host, e.g. 'https://api.example.com' or 'https://*.example.com'), no path, no wildcard scheme",
        );
      }
    }
  }
}

export function assertViewUri(uri: unknown, source: string): void {
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s/]+/.test(uri)) {
    throw new Error(
      `${source}: a view's URI must use the ui:// scheme with a name after it (e.g. 'ui://billing/customer-balance'), got ${JSON.stringify(uri)}`,
    );
  }
}

export function assertVisibility(visibility: unknown, source: string): void {
  if (visibility === undefined) return;
  if (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => !VISIBILITIES.includes(v as McpToolVisibility))) {
    throw new Error(
      `${source}: visibility lists who may call the tool, one or both of 'model' and 'app', got ${JSON.stringify(visibility)}`,
    );
  }
  if (new Set(visibility).size !== visibility.length) throw new Error(`${source}: visibility lists ${JSON.stringify(visibility)} twice`);
}

/**
 * The loaded document: not empty, and naming no `http(s)://` origin its CSP does not declare. The
 * scan is cheap and literal: it finds absolute URLs written in the HTML (`src`, `href`, `url(…)`,
 * strings in scripts), not those a script assembles at run time; the policy, enforced by the host
 * and the browser, stops those. XML namespace names (`http://www.w3.org/…`) are identifiers, never fetched.
 */
export function assertViewHtml(html: unknown, uri: string, csp: ViewCsp, source: string): asserts html is string {
  if (typeof html !== 'string' || html.trim() === '') {
    throw new Error(`${source}: the view ${uri} has no HTML: its html gave ${typeof html === 'string' ? 'an empty string' : typeof html}`);
  }
  const declared = [...csp.connectDomains, ...csp.resourceDomains];
  for (const match of html.matchAll(/\bhttps?:\/\/[^\s"'`<>()\\]+/gi)) {
    let origin: string;
    try {
      origin = new URL(match[0]).origin;
    } catch {
      continue; // not a URL a browser would fetch
    }
    if (origin === 'http://www.w3.org') continue;
    if (!declared.some((allowed) => originMatches(allowed, origin))) {
      throw new Error(
        `${source}: the view ${uri} names ${origin} (${match[0].slice(0, 80)}), which its csp does not declare. ` +
          'Views reach no external origin by default: inline the resource, or declare the origin in csp.resourceDomains ' +
          '(scripts, styles, images, fonts) or csp.connectDomains (fetch, WebSocket)',
      );
    }
  }
}

function isDeclarableOrigin(value: unknown): value is string {
  return typeof value === 'string' && /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(value);
}

/** `https://api.example.com` matches itself; `https://*.example.com` any subdomain of example.com. */
function originMatches(allowed: string, origin: string): boolean {
  if (allowed.toLowerCase() === origin.toLowerCase()) return true;
  const wildcard = /^([a-z]+:\/\/)\*\.(.+)$/i.exec(allowed);
  if (!wildcard) return false;
  const [, scheme, domain] = wildcard;
  return origin.toLowerCase().startsWith(scheme.toLowerCase()) && origin.toLowerCase().endsWith(`.${domain.toLowerCase()}`);
}
