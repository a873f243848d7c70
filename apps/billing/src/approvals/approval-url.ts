/** The approval page a person opens, on the public URL fixed at boot (never the caller's Host header). */
export function approvalUrl(id: string, publicUrl: string): string {
  return `${publicUrl}/admin/approvals/${id}`;
}
