import type { Implementation } from '@modelcontextprotocol/server';

/** What a host application passes to `McpModule.forRoot()` / `forRootAsync()`. Every field has a default. */
export interface McpModuleOptions {
  /** Endpoint path of the JSON-RPC controller. Default `/mcp`. */
  path?: string;
  /** `serverInfo`: name, title and version shown to clients. */
  serverInfo?: Partial<Pick<Implementation, 'name' | 'title' | 'version'>>;
  /** Text for the model, sent by `initialize` and `server/discover`. */
  instructions?: string;
  /** Protocol revisions this endpoint speaks, newest first. Default 2026-07-28, 2025-06-18, 2025-03-26. */
  supportedVersions?: string[];
  /** Largest accepted request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Origins allowed to call the endpoint (browser clients send `Origin`). Default: the server's
   * own origin and any localhost origin. `['*']` disables the check.
   */
  allowedOrigins?: string[];
  /**
   * Host names accepted in the `Host` header when the server is bound to a loopback address
   * (DNS-rebinding protection). Default: localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: string[];
  /** Page size of `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`. Default 100. */
  pageSize?: number;
  /** Refuse tool arguments that the input DTO does not declare (and say so in the schema). Default true. */
  forbidUnknownArguments?: boolean;
  /**
   * What happens to a tool annotated `destructiveHint: true`. `refuse` (the default until a
   * confirmation flow is configured): it never runs, and the caller is told why.
   */
  destructiveTools?: 'refuse';
}

/** The options with every default applied; the only shape the rest of the layer reads. */
export interface ResolvedMcpOptions {
  path: string;
  serverInfo: { name: string; title: string; version: string };
  instructions: string;
  supportedVersions: string[];
  maxBodyBytes: number;
  allowedOrigins: string[];
  allowedHosts: string[];
  pageSize: number;
  forbidUnknownArguments: boolean;
  destructiveTools: 'refuse';
}
