import type { Request } from 'express';

/** The approval page a person opens: on PUBLIC_URL when set, else on the host the caller reached. */
export function approvalUrl(id: string, request: Request, publicUrl?: string): string {
  return `${publicUrl ?? `${request.protocol}://${request.get('host')}`}/admin/approvals/${id}`;
}
