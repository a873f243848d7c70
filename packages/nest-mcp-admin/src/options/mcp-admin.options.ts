import type { McpInvocation } from '@nest-mcp/core';
import type { Request } from 'express';
import type { ApprovalView } from './approval.view.js';

/** A signed-in person, as the application knows them: ids as text, whatever their type in its tables. */
export interface McpAdminPerson {
  id: string;
  name: string;
  email?: string;
}

/**
 * Who is looking at the pages: the application's sign-in, as an extension point. The package has
 * no sign-in of its own: give `headerIdentity(…)` behind an SSO proxy, or your own (a session
 * cookie of your sign-in form).
 */
export interface McpAdminIdentity {
  /** The signed-in person of a request, or undefined (the page then sends them to `signInUrl`). */
  person(request: Request): Promise<McpAdminPerson | undefined>;
  /** Where to sign in, then come back to `returnTo` (a path under the pages' path). */
  signInUrl(returnTo: string): string;
  /**
   * A path under the pages' path that signs out (a POST carrying the page's `_csrf` field, see
   * `McpAdminCsrf`): shown as "Sign out" in the header. Without it, no sign-out is shown.
   */
  signOutPath?: string;
}

/** Why the pages ask which tenants a person acts in. */
export type McpAdminPurpose = 'approve' | 'tasks';

/** The application's people and tenants (workspaces, accounts, organisations), as the pages show them. */
export interface McpAdminDirectory {
  /** The tenants where `personId` may decide approvals (`approve`) or watch and cancel tasks (`tasks`). */
  tenantsWhere(personId: string, purpose: McpAdminPurpose): Promise<string[]>;
  /** Names of people by id (requesters, deciders); an id missing from the answer reads "unknown". */
  people(ids: string[]): Promise<ReadonlyMap<string, { name: string; email?: string }>>;
  /** Names of tenants by id. */
  tenants(ids: string[]): Promise<ReadonlyMap<string, { name: string; slug?: string }>>;
  /** Words for the credentials calls came with (e.g. `token “CI”`), by credential id; optional. */
  credentials?(ids: string[]): Promise<ReadonlyMap<string, string>>;
}

/** Who asks for an approval, and in which tenant. */
export interface McpAdminRequester {
  tenantId: string;
  personId: string;
  /** The credential the call came with (a token id, never the token). */
  credentialId: string;
}

/** `McpAdminModule.forRoot()` / `forRootAsync()`. */
export interface McpAdminOptions {
  /**
   * The public origin of the application (`https://admin.example.com`, with a path prefix if it is
   * served under one): approval links are absolute and built from it, never from a request's Host
   * header; a form's `Origin` header must match it. A function for a URL known only once the
   * server listens (read at each use, never from a request).
   */
  publicUrl: string | (() => string);
  /** How long a link stays usable, and how long its outcome is answered to identical calls. Default: 30 min. */
  approvalTtlMs?: number;
  /** The channel (`McpChannel`) of the writes of an approved call and of the pages' audit rows. Default: `admin`. */
  channel?: string;
  identity: McpAdminIdentity;
  directory: McpAdminDirectory;
  /**
   * Who asks and in which tenant, when the layer asks for a link for `invocation`; undefined: the
   * call is refused with a 400 telling the agent to name the tenant.
   */
  requester: (invocation: McpInvocation) => McpAdminRequester | undefined | Promise<McpAdminRequester | undefined>;
  /**
   * The person an MCP call comes from (their id in the directory), whatever tenant it acts in: who
   * presses Continue or Cancel in the approval view shown in their chat (`mcpAdminViews()`), held to
   * the same rule as on the pages (`directory.tenantsWhere(id, 'approve')`). Default: none, and the
   * view's decisions are refused with the approval page's link.
   */
  callerPerson?: (invocation: McpInvocation) => string | undefined | Promise<string | undefined>;
  /**
   * Makes `request` act as `person` in the approval's tenant before Continue runs the call (sets
   * the application's principal on it): the call runs through guards and access policy as theirs.
   */
  actAs: (person: McpAdminPerson, approval: ApprovalView, request: Request) => void | Promise<void>;
  /** The name in the pages' header and titles. Default: `Admin`. */
  title?: string;
  /**
   * The 400's message after the tool's name when `requester` answers undefined. Default: "needs a
   * tenant to ask for approval in: name the tenant the call acts in and call again."
   */
  missingTenant?: string;
}

/** The options with every default filled. */
export interface ResolvedMcpAdminOptions {
  /** The checked public URL, no trailing slash. */
  publicUrl(): string;
  approvalTtlMs: number;
  channel: string;
  identity: McpAdminIdentity;
  directory: McpAdminDirectory;
  requester: McpAdminOptions['requester'];
  callerPerson?: McpAdminOptions['callerPerson'];
  actAs: McpAdminOptions['actAs'];
  title: string;
  missingTenant: string;
  /** Where the pages are mounted (`/admin`), without a trailing slash. */
  path: string;
}

export const MCP_ADMIN_OPTIONS = Symbol('MCP_ADMIN_OPTIONS');
/** The mount path given to `forRoot` / `forRootAsync` (an extra: known before any factory runs). */
export const MCP_ADMIN_PATH = Symbol('MCP_ADMIN_PATH');
