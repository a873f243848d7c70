/**
 * An app view (MCP Apps, docs/app-views.md): the application's own HTML, served by the layer as a
 * `ui://` resource (`text/html;profile=mcp-app`) that hosts render in a sandboxed frame beside the
 * conversation, next to the result of a tool that links it.
 */
export interface McpViewOptions {
  /** `ui://…`, unique among views (checked at boot). The resource's name is the URI without its scheme. */
  uri: `ui://${string}`;
  /**
   * The whole document. A function is called once, at boot (a file read next to the module, a
   * template filled with the server's settings): views, like tools, never change while the server runs.
   * It must not name an `http(s)://` origin that `csp` does not declare (checked at boot).
   */
  html: string | (() => string | Promise<string>);
  title?: string;
  description?: string;
  /**
   * Origins the view may reach. Default: none, the view is self-contained (inline script, style and
   * `data:` images only). The host enforces this policy; the layer also writes it into the document.
   */
  csp?: McpViewCsp;
  /** Whether the host should draw a border and background around the view. Default: the host decides. */
  prefersBorder?: boolean;
}

/** The origins an app view may reach (`https://api.example.com`, `https://*.example.com`). */
export interface McpViewCsp {
  /** Origins for `fetch`, XHR and WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Origins for scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
}

/**
 * Who may call a tool (`_meta.ui.visibility`): `model`, the agent; `app`, the views of this server
 * (through the host). A tool only for its views is `['app']`: hosts keep it from the model, the
 * server still lists it. Default (omitted): both.
 */
export type McpToolVisibility = 'model' | 'app';
