import type { Role } from '../generated/prisma/client.js';

/** Approval settings from the environment (injected by {@link APPROVALS_CONFIG}), validated at boot. */
export interface ApprovalsConfig {
  /** How long a link stays usable, and how long its outcome is answered to identical calls. */
  ttlMs: number;
  /** Roles that may choose Continue / Cancel in a workspace. */
  deciderRoles: Role[];
}

export const APPROVALS_CONFIG = Symbol('APPROVALS_CONFIG');

export function approvalsConfigFromEnv(env: NodeJS.ProcessEnv): ApprovalsConfig {
  const minutes = Number(env.APPROVAL_TTL_MINUTES ?? 30);
  if (!Number.isFinite(minutes) || minutes <= 0)
    throw new Error(`APPROVAL_TTL_MINUTES must be a positive number, got ${env.APPROVAL_TTL_MINUTES}`);
  const roles = (env.APPROVAL_ROLES ?? 'admin')
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  for (const role of roles) {
    if (!['viewer', 'accountant', 'admin'].includes(role)) throw new Error(`APPROVAL_ROLES: unknown role "${role}"`);
  }
  return { ttlMs: minutes * 60_000, deciderRoles: roles as Role[] };
}
