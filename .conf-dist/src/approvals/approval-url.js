/** The approval page a person opens, on the public URL fixed at boot (never the caller's Host header). */
export function approvalUrl(id, publicUrl) {
    return `${publicUrl}/admin/approvals/${id}`;
}
//# sourceMappingURL=approval-url.js.map