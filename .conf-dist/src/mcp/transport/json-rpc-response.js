import { encodeWithRaw } from '../server/raw-json.js';
/** Headers every response of the endpoint carries (SPEC §1). */
export function setMcpResponseHeaders(res, protocolVersion) {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('MCP-Protocol-Version', protocolVersion);
}
export function jsonRpcError(id, code, message, data) {
    return {
        jsonrpc: '2.0',
        id: id,
        error: data === undefined ? { code, message } : { code, message, data },
    };
}
/** Writes a JSON-RPC error straight to the socket: used before Nest's pipeline has a say. */
export function sendJsonRpcError(res, status, protocolVersion, error, headers = {}) {
    setMcpResponseHeaders(res, protocolVersion);
    for (const [name, value] of Object.entries(headers))
        res.setHeader(name, value);
    sendJson(res, status, error);
}
/**
 * Writes a JSON answer with `res.end`: Express' `res.json()` would also hash the body for an ETag,
 * which a `no-store` POST answer never uses (a measurable share of a large `tools/list`).
 * `RawJson` values inside are written as they are (see `raw-json.ts`).
 */
export function sendJson(res, status, body) {
    const bytes = encodeWithRaw(body);
    res.status(status);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
}
//# sourceMappingURL=json-rpc-response.js.map