import type { Icon } from '@modelcontextprotocol/server';
import type { Type } from '@nestjs/common';
import type { McpConfirmationMode } from './mcp-options.interface.js';
import type { McpInputJsonSchema } from '../schema/raw-json-schema.js';
import type { McpToolVisibility, McpViewOptions } from './mcp-view.options.js';

/** An icon clients may show beside the entry (2025-11-25): `src` is an `https:` URL or a `data:image/…;base64,` URI. */
export type McpIcon = Icon;

/** Tool behaviour hints (MCP `ToolAnnotations`). Clients use them to decide when to ask the user. */
export interface McpToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  /** Defaults to false: tools reach nothing outside this backend. */
  openWorldHint?: boolean;
}

export interface McpToolOptions {
  /** Tool name; defaults to the method name. 1–128 characters of `A-Z a-z 0-9 _ - .` (SEP-986). */
  name?: string;
  title?: string;
  /** Icons for client UIs (2025-11-25); checked when the decorator is applied. */
  icons?: McpIcon[];
  /** Written as a prompt for the model: when to use, never use for, side effects, success, fallback. */
  description: string;
  /**
   * Scopes a caller needs to see and call the tool. On a controller route they are also the
   * route's `@RequiredScopes()`: one declaration protects REST and MCP (the boot fails when an
   * explicit `@RequiredScopes()` on the method says otherwise). Default: the method's or class's
   * `@RequiredScopes()`, else none.
   */
  scopes?: string[];
  /** Behaviour hints; every one defaults to false and all four are always sent. */
  annotations?: McpToolAnnotations;
  /**
   * Destructive tools only: `link` requires the approval page even from clients that could confirm
   * in the chat (money-moving tools). Default `elicitation-or-link`; the McpModule option
   * `destructiveConfirmation` can make every destructive tool `link`, never the reverse.
   */
  confirmation?: McpConfirmationMode;
  /**
   * Input DTO: the tool's `inputSchema` and validator. Default: on a controller route, its
   * `@Body()`, `@Query()` and `@Param()` DTOs and named `@Param('id')` / `@Query('q')` parameters
   * together (a name claimed twice fails the boot); on a provider method, its first parameter's
   * type. Given explicitly, it must carry every parameter the handler reads by name.
   */
  input?: Type<unknown>;
  /**
   * The tool's input schema written in JSON Schema 2020-12, for what a DTO cannot say (`$defs`,
   * `allOf`/`anyOf`, `if`/`then`/`else`, …; docs/tools.md, "Raw JSON Schema"). Published in
   * `tools/list` exactly as given and enforced on every call, over MCP and over the route's REST
   * requests. Without `input`, the handler receives the arguments as sent (no DTO is read from its
   * parameters); with `input`, the DTO then validates and transforms them, and must require the same
   * properties as the schema's root `required` (else the boot fails).
   */
  inputSchema?: McpInputJsonSchema;
  /** Output DTO: gives the tool an `outputSchema` and its results `structuredContent`. */
  output?: Type<unknown>;
  /**
   * Long work (docs/tasks.md). The method does not change: the layer runs it in the request or as a
   * task on the job queue, on any replica. `optional`: a task for a client that declared the tasks
   * extension on the request, in the request for any other. `required`: a task, and any other
   * client gets `-32021`. `background`: always on the queue; a client without the extension gets
   * `status: "queued"` with a `jobId` to follow with the job tool (`tasks.jobTool`); on a controller
   * route, a REST request gets `202 Accepted` with the job, `Location` of the job tool's route and
   * `Retry-After`, and the handler runs only as the task's run.
   * Default: none (the call runs in its request).
   */
  task?: McpTaskSupport;
  /**
   * The app view shown with the tool's results (docs/app-views.md): the view itself, or the `ui://`
   * URI of one declared elsewhere (by another tool, or in the McpModule option `views`). Sent as
   * the tool's `_meta.ui.resourceUri`; the view is served as a resource to the callers who can see the tool.
   */
  view?: McpViewOptions | string;
  /** Who may call the tool (`_meta.ui.visibility`): `['app']` for a tool only its views call. Default: both. */
  visibility?: McpToolVisibility[];
}

export type McpTaskSupport = 'optional' | 'required' | 'background';

export interface McpResourceOptions {
  /** A fixed URI (`billing://status`) or an RFC 6570 template (`billing://invoices/{id}`). */
  uri: string;
  /** Resource name; defaults to the method name. */
  name?: string;
  title?: string;
  /** Icons for client UIs (2025-11-25); checked when the decorator is applied. */
  icons?: McpIcon[];
  description?: string;
  mimeType?: string;
  /** As `McpToolOptions.scopes`: also the route's `@RequiredScopes()`. */
  scopes?: string[];
  /**
   * DTO of the template's variables: it validates them on each read (a malformed value is invalid
   * params) and its properties must be exactly the template's variables, or the boot fails.
   * Default: on a controller route, its `@Param('id')` parameters and `@Param()` DTO; on a provider
   * method, its first parameter's type when it is a class (`ticket(variables: TicketVariablesDto)`).
   */
  input?: Type<unknown>;
}

export interface McpPromptOptions {
  /** Prompt name; defaults to the method name. */
  name?: string;
  title?: string;
  /** Icons for client UIs (2025-11-25); checked when the decorator is applied. */
  icons?: McpIcon[];
  description?: string;
  /** As `McpToolOptions.scopes`: also the route's `@RequiredScopes()`. */
  scopes?: string[];
  /** Arguments DTO (its properties are the prompt's arguments); defaults as `McpToolOptions.input`. */
  args?: Type<unknown>;
}

/** Declares a method as the completion source of one prompt argument or one template variable. */
export type McpCompletionOptions = { prompt: string; argument: string } | { resourceTemplate: string; argument: string };

/** What the decorators store: the options with the name resolved. */
export type McpToolMetadata = McpToolOptions & { name: string };
export type McpResourceMetadata = McpResourceOptions & { name: string };
export type McpPromptMetadata = McpPromptOptions & { name: string };
