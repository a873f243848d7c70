export function principalOf(req) {
    return req.principal;
}
export function setPrincipal(req, principal) {
    req.principal = principal;
}
export function setRequestWorkspace(req, workspace) {
    req.workspace = workspace;
}
export function requestWorkspace(req) {
    return req.workspace;
}
//# sourceMappingURL=request-principal.js.map