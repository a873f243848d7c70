// What the bench sends and what it accepts as an answer; shared by the runner (scripts/bench.mjs,
// for the one-request preflight of every case) and the load generator (bench/load-generator.mjs).

export const ERA_2026 = '2026-07-28';
export const ERA_2025 = '2025-06-18';

const envelope2026 = {
  'io.modelcontextprotocol/protocolVersion': ERA_2026,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

/** Headers of an MCP POST in `era`: the 2026 era repeats method and name in headers (docs/contract.md §2.3). */
export function mcpHeaders(era, method, name, extra = {}) {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era,
    ...(era === ERA_2026 ? { 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) } : {}),
    ...extra,
  };
}

/** The client capabilities of a 2026-era request that declares the MCP tasks extension (case 8). */
export const TASKS_CAPABILITIES = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/**
 * A JSON-RPC request body in `era` (the 2026 era carries the per-request `_meta` envelope, with
 * `capabilities` as its client capabilities when given).
 */
export function mcpBody(era, method, params = {}, id = 1, capabilities = undefined) {
  const meta = capabilities ? { ...envelope2026, 'io.modelcontextprotocol/clientCapabilities': capabilities } : envelope2026;
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: era === ERA_2026 ? { ...params, _meta: meta } : params });
}

/** Checks of a response body: true when the answer is the success the case expects. */
export const VERIFY = {
  // REST GET /v1/customers/summary
  'rest-summary': (body) => body.includes('"recent_invoices"'),
  // REST GET /v1/invoices (and the floor server, which answers the same JSON)
  'rest-invoices': (body) => body.includes('"items":[{') && body.includes('"total_matching":'),
  // MCP tools/call billing_invoices_search: a success whose data is a page of invoices
  'mcp-invoices': (body) => VERIFY['mcp-result'](body) && body.includes('total_matching'),
  // REST POST /v1/customers
  'rest-created': (body) => body.includes('"id"') && body.includes('"created_via":"api"'),
  // A JSON-RPC success (JSON or one SSE event) whose tool result is not an error.
  'mcp-result': (body) => body.includes('"result"') && !body.includes('"isError":true') && !body.includes('"error":{'),
  // An SSE answer of stream mode: progress notifications, then a successful tool result.
  'mcp-progress': (body) => body.includes('notifications/progress') && VERIFY['mcp-result'](body),
  // A tools/list result.
  'tools-list': (body) => body.includes('"tools":['),
};

/**
 * Bodies made per request (a distinct customer email each time) in autocannon's setupRequest.
 * `tag` keeps emails of different processes apart; `next()` numbers them within one.
 */
export function bodyFactories(tag) {
  let sequence = 0;
  const customer = () => {
    const n = ++sequence;
    return { n, args: { name: `Bench Customer ${tag}-${n}`, email: `bench-${tag}-${n}@load.test` } };
  };
  const mcpCreate = (era) => () => {
    const { n, args } = customer();
    // A write with an idempotency key (case 4): a fresh key per request, so each one really runs.
    return mcpBody(era, 'tools/call', { name: 'billing_customer_create', arguments: { ...args, idempotency_key: `bench-${tag}-${n}` } }, n);
  };
  return {
    'rest-create': () => JSON.stringify(customer().args),
    // The REST create with the guarantee an MCP write has: an idempotency key (its claim, the
    // request in one transaction with it, the answer stored for a replay).
    'rest-create-keyed': () => {
      const { n } = customer();
      // Emails of their own (`keyed-…`): case 4's write check counts the `bench-…` rows only.
      return JSON.stringify({
        name: `Keyed Customer ${tag}-${n}`,
        email: `keyed-${tag}-${n}@load.test`,
        idempotency_key: `keyed-${tag}-${n}`,
      });
    },
    'mcp-create-2026': mcpCreate(ERA_2026),
    'mcp-create-2025': mcpCreate(ERA_2025),
  };
}
