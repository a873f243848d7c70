import type { Request } from 'express';
import type { Principal } from './principal.js';

type WithPrincipal = Request & { principal?: Principal; workspace?: { id: string; slug: string } };

export function principalOf(req: Request): Principal | undefined {
  return (req as WithPrincipal).principal;
}

export function setPrincipal(req: Request, principal: Principal): void {
  (req as WithPrincipal).principal = principal;
}

export function setRequestWorkspace(req: Request, workspace: { id: string; slug: string }): void {
  (req as WithPrincipal).workspace = workspace;
}

export function requestWorkspace(req: Request): { id: string; slug: string } | undefined {
  return (req as WithPrincipal).workspace;
}
