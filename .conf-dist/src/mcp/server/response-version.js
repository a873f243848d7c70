const RESPONSE_VERSION = Symbol('mcp:responseVersion');
/** Remembers, on the request, the protocol version its answer must announce. */
export function setResponseVersion(req, version) {
    req[RESPONSE_VERSION] = version;
}
export function responseVersionOf(req) {
    return req[RESPONSE_VERSION];
}
//# sourceMappingURL=response-version.js.map