import { McpTaskRefused } from '@nest-mcp/core/extensions';
import type { Channel } from '../generated/prisma/client.js';
import { SURFACES, type Principal, type Surface } from '../identity/principal.js';

/**
 * What a task keeps of its caller (the `caller` column of `mcp_tasks`): what identifies the
 * person and the credential, to check again at each run that they may still act, and what cannot
 * be read again later (a JWT's scopes and expiry). Never a credential: no token, no secret, no hash.
 */
export interface TaskCaller {
  /** The shape's version: a task queued before an upgrade is read by the code after it. */
  v: 1;
  kind: Principal['kind'];
  userId: string;
  /** A personal token's id, `jwt:<iss>#<sub>[#<jti>]`, or `panel:approval:<id>`. */
  tokenId: string;
  callerId?: string;
  onBehalfOf?: string;
  /** The scopes the credential granted (a personal token's are read again from its row at each run). */
  scopes: string[];
  surfaces: Surface[];
  /** The workspace the credential is bound to, if any (a personal token's is read again). */
  boundWorkspaceId?: string;
  /** A JWT's issuer and subject: the link to `userId` is checked again at each run. */
  issuer?: string;
  subject?: string;
  /** A JWT's `exp`, epoch milliseconds: the task may not run as the caller after it. */
  expiresAtMs?: number;
  /** The workspace the request acted in (resolved at creation): the run acts there, if still a member. */
  workspace?: { id: string; slug: string };
  /** Where the request came from: the run's writes are stamped with it (`created_via`). */
  channel: Channel;
}

const KINDS: ReadonlyArray<Principal['kind']> = ['personal', 'jwt', 'panel'];
const CHANNELS: readonly Channel[] = ['mcp', 'api', 'panel', 'system'];

/** The caller of a request, as a task keeps it. */
export function callerOf(
  principal: Principal,
  workspace: { id: string; slug: string } | undefined,
  channel: Channel,
  jwtExpiresAtMs: number | undefined,
): TaskCaller {
  const jwt = principal.kind === 'jwt' ? jwtIdentity(principal) : undefined;
  return {
    v: 1,
    kind: principal.kind,
    userId: principal.userId,
    tokenId: principal.tokenId,
    ...(principal.callerId !== undefined ? { callerId: principal.callerId } : {}),
    ...(principal.onBehalfOf !== undefined ? { onBehalfOf: principal.onBehalfOf } : {}),
    scopes: [...principal.scopes],
    surfaces: [...principal.surfaces],
    ...(principal.workspaceId !== undefined ? { boundWorkspaceId: principal.workspaceId } : {}),
    ...(jwt ?? {}),
    ...(jwtExpiresAtMs !== undefined ? { expiresAtMs: jwtExpiresAtMs } : {}),
    ...(workspace ? { workspace: { id: workspace.id, slug: workspace.slug } } : {}),
    channel,
  };
}

/** A stored caller, checked field by field: a row edited by hand or a shape from another version is refused, never guessed at. */
export function parseCaller(value: Record<string, unknown>): TaskCaller {
  const v = value as Partial<TaskCaller>;
  const text = (field: unknown) => typeof field === 'string' && field.length > 0;
  const optionalText = (field: unknown) => field === undefined || text(field);
  const texts = (field: unknown) => Array.isArray(field) && field.every((item) => typeof item === 'string');
  const valid =
    v.v === 1 &&
    KINDS.includes(v.kind!) &&
    text(v.userId) &&
    text(v.tokenId) &&
    optionalText(v.callerId) &&
    optionalText(v.onBehalfOf) &&
    texts(v.scopes) &&
    texts(v.surfaces) &&
    v.surfaces.every((surface) => SURFACES.includes(surface)) &&
    optionalText(v.boundWorkspaceId) &&
    optionalText(v.issuer) &&
    optionalText(v.subject) &&
    (v.expiresAtMs === undefined || Number.isFinite(v.expiresAtMs)) &&
    (v.workspace === undefined || (text(v.workspace?.id) && text(v.workspace?.slug))) &&
    CHANNELS.includes(v.channel!);
  if (!valid) throw new McpTaskRefused('The caller of this task cannot be read back: it cannot run as them');
  return v as TaskCaller;
}

/** Issuer and subject of a JWT principal, from its `callerId` (`jwt:<iss>#<percent-encoded sub>`, see `jwtTokenId`). */
function jwtIdentity(principal: Principal): { issuer: string; subject: string } | undefined {
  const id = principal.callerId;
  if (!id?.startsWith('jwt:')) return undefined;
  const hash = id.lastIndexOf('#');
  if (hash <= 4) return undefined;
  try {
    return { issuer: id.slice(4, hash), subject: decodeURIComponent(id.slice(hash + 1)) };
  } catch {
    return undefined;
  }
}
