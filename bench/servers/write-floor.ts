// Case 4's floor: what the two writes of case 4 cost with nothing but `node:http` and `pg`, so
// that the target on their ratio (MCP create ≥ 0.8× REST create) can be read against the ratio
// of their SQL alone. Both routes send the statements the application sends (captured from
// Postgres with log_statement=all; see bench/README.md), on a pool configured as the application's
// (DATABASE_POOL_SIZE, pipelined, unnamed statements):
//   POST /v1/customers — the REST create: the email's uniqueness check, then the INSERT (2 round trips,
//     autocommit, no audit row, no idempotency key: the application's REST route without a key).
//   POST /mcp — billing_customer_create with an idempotency_key: BEGIN and the key's claim in one
//     write; the uniqueness check; the INSERT; the stored answer and the audit row (one statement)
//     and COMMIT in one write (4 round trips, one transaction), answered as a JSON-RPC tool result.
// The bearer token is checked in memory (SHA-256 against the minted token's hash), as the
// application's verified-token cache does between two requests. Protocol checks, validation and
// the answer's shape are the minimum each route needs; the bench's checks accept the answers.
// Creates its own workspace, so it needs only a migrated database.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { generateTokenSecret, hashToken } from '../../apps/billing/src/identity/token-secret.js';
import { sendJson, serveBare } from './bare-http.js';
import { fail } from './lifecycle.js';

const FIND_BY_EMAIL_SQL = `SELECT "t0"."id", "t0"."workspace_id" AS "workspaceId", "t0"."name", "t0"."email", "t0"."tax_id" AS "taxId", "t0"."created_via"::text AS "createdVia", "t0"."updated_via"::text AS "updatedVia", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt" FROM "public"."customers" AS "t0" WHERE (("t0"."workspace_id" = $1 AND "t0"."email" = $2) AND 1=1) LIMIT $3`;
const INSERT_SQL = `INSERT INTO "public"."customers" ("id","workspace_id","name","email","tax_id","created_via","updated_via","created_at","updated_at") VALUES ($1,$2,$3,$4,$5,CAST($6::text AS "public"."Channel"),CAST($7::text AS "public"."Channel"),$8,$9) RETURNING "public"."customers"."id", "public"."customers"."workspace_id", "public"."customers"."name", "public"."customers"."email", "public"."customers"."tax_id", "public"."customers"."created_via"::text, "public"."customers"."updated_via"::text, "public"."customers"."created_at", "public"."customers"."updated_at"`;
const CLAIM_SQL = `
        INSERT INTO mcp_idempotency_records (scope, tool, key, arguments_hash, expires_at)
        VALUES ($1, $2, $3, $4,
                (now() AT TIME ZONE 'UTC') + $5::integer * interval '1 second')
        ON CONFLICT (scope, tool, key) DO NOTHING
        RETURNING 1 AS claimed`;
const ANSWER_AND_AUDIT_SQL = `WITH w0 AS (
      UPDATE mcp_idempotency_records SET result = to_jsonb($1::text)
      WHERE scope = $2 AND tool = $3 AND key = $4), w1 AS (INSERT INTO "mcp_audit_events" ("id", "channel", "workspace_id", "user_id", "token_id", "client_name", "client_version", "method", "target", "arguments", "outcome", "error_code", "duration_ms", "trace_id") VALUES ($5::uuid, $6, $7, $8,
      $9, $10, $11, $12,
      $13, $14::jsonb, $15, $16,
      $17, $18)) SELECT 1`;
const TOOL = 'billing_customer_create';
const TTL_SECONDS = 86_400;

interface CustomerRow {
  id: string;
  name: string;
  email: string;
  tax_id: string | null;
  created_via: string;
  updated_via: string;
  created_at: Date;
}

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  pipeline: true,
});
const workspace = { id: randomUUID(), userId: randomUUID(), tokenId: randomUUID() };
let tokenHash = '';

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function authorized(req: IncomingMessage): boolean {
  const header = req.headers.authorization ?? '';
  return header.startsWith('Bearer ') && hashToken(header.slice(7).trim()) === tokenHash;
}

/** The customer as the REST route answers it. */
const view = (row: CustomerRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  tax_id: row.tax_id,
  created_via: row.created_via,
  updated_via: row.updated_via,
  created_at: row.created_at.toISOString(),
});

/** The uniqueness check and the INSERT, on the pool or on a transaction's client. */
async function createCustomer(db: pg.Pool | pg.PoolClient, name: string, email: string, via: string): Promise<CustomerRow | undefined> {
  const existing = await db.query(FIND_BY_EMAIL_SQL, [workspace.id, email, 1]);
  if (existing.rowCount) return undefined;
  const now = new Date();
  const { rows } = await db.query<CustomerRow>(INSERT_SQL, [randomUUID(), workspace.id, name, email, null, via, via, now, now]);
  return rows[0];
}

async function restCreate(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = (await readJson(req)) as { name?: unknown; email?: unknown };
  if (typeof body.name !== 'string' || typeof body.email !== 'string')
    return sendJson(res, 400, { message: 'name and email are required' });
  const created = await createCustomer(pool, body.name, body.email, 'api');
  if (!created) return sendJson(res, 409, { message: 'A customer with this email exists' });
  sendJson(res, 201, view(created));
}

async function mcpCreate(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!req.headers['mcp-protocol-version']) return sendJson(res, 400, { message: 'MCP-Protocol-Version is required' });
  const message = (await readJson(req)) as {
    id: number;
    params: { name: string; arguments: { name: string; email: string; idempotency_key: string }; _meta?: Record<string, unknown> };
  };
  const started = Date.now();
  const { name, arguments: args } = message.params;
  if (name !== TOOL)
    return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Unknown tool ${name}` } });
  const argumentsHash = createHash('sha256').update(JSON.stringify(args)).digest('hex');
  const client = await pool.connect();
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  try {
    stream.cork();
    const begun = client.query('BEGIN');
    const claimed = client.query(CLAIM_SQL, [workspace.id, TOOL, args.idempotency_key, argumentsHash, TTL_SECONDS]);
    stream.uncork();
    const [, claim] = await Promise.all([begun, claimed]);
    if (!claim.rowCount) {
      await client.query('ROLLBACK');
      return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32600, message: 'Replayed key (not measured)' } });
    }
    const created = await createCustomer(client, args.name, args.email, 'mcp');
    const payload = created
      ? {
          ok: true,
          status: 'success',
          data: view(created),
          errors: [],
          toolName: TOOL,
          safety: 'mutation',
          durationMs: Date.now() - started,
        }
      : { ok: false, status: 'failed', errors: [{ code: 'conflict' }], toolName: TOOL, safety: 'mutation' };
    const result = {
      content: [{ type: 'text', text: JSON.stringify(payload) }],
      structuredContent: payload,
      ...(created ? {} : { isError: true }),
    };
    const meta = message.params._meta ?? {};
    const clientInfo = (meta['io.modelcontextprotocol/clientInfo'] ?? {}) as { name?: string; version?: string };
    stream.cork();
    const written = client.query(ANSWER_AND_AUDIT_SQL, [
      JSON.stringify(result),
      workspace.id,
      TOOL,
      args.idempotency_key,
      randomUUID(),
      'mcp',
      workspace.id,
      workspace.userId,
      workspace.tokenId,
      clientInfo.name ?? null,
      clientInfo.version ?? null,
      'tools/call',
      TOOL,
      JSON.stringify(args),
      created ? 'success' : 'error',
      created ? null : 'conflict',
      Date.now() - started,
      null,
    ]);
    const committed = client.query('COMMIT');
    stream.uncork();
    await Promise.all([written, committed]);
    sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 404, { message: 'Only POST /v1/customers and POST /mcp' });
  if (!authorized(req)) return sendJson(res, 401, { message: 'The access token is not valid' });
  if (req.url === '/v1/customers') return restCreate(req, res);
  if (req.url === '/mcp') return mcpCreate(req, res);
  sendJson(res, 404, { message: 'Only POST /v1/customers and POST /mcp' });
}

try {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must name the bench database');
  await pool.query(`INSERT INTO "public"."workspaces" ("id", "slug", "name") VALUES ($1, $2, 'Write floor')`, [
    workspace.id,
    `write-floor-${workspace.id}`,
  ]);
  const token = generateTokenSecret();
  tokenHash = hashToken(token);
  await serveBare(handle, { server: 'write floor (node:http + pg, case 4 SQL)', token });
} catch (error) {
  fail(error);
}
