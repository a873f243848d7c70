// Case 6, the floor: what `GET /v1/invoices?limit=N` costs with nothing but `node:http` and `pg`.
// It runs the SQL the application runs for that route (captured from Postgres with
// log_statement=all; see bench/README.md), folded into the three statements the work needs:
//   1. the token by its hash, with its user, the user's memberships and their workspaces (one join)
//   2. the page of invoices with their customer (one join), newest issue date first, limit + 1 rows
//   3. the total count of the workspace's invoices (the application's own statement)
// It checks the bearer token as the application does (SHA-256 lookup; revoked, expired, bound
// workspace, billing:read scope) and answers the same JSON as the REST route, so the bench's
// preflight checks it like the others. Same pool size as the application (DATABASE_POOL_SIZE, 10),
// unnamed statements (as the Prisma adapter sends them), no transaction (the application reads
// outside one too). Needs the bench database after the billing app seeded it (case 6 runs it last).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ALL_SCOPES, APP_ROLE_SCOPES as ROLE_SCOPES, SCOPES } from '../../apps/billing/src/app.scopes.js';
import { displayPrefix, generateTokenSecret, hashToken } from '../../apps/billing/src/identity/token-secret.js';
import { sendJson, serveBare } from './bare-http.js';
import { fail } from './lifecycle.js';

// Dates as the application formats them: DATE columns stay 'YYYY-MM-DD'; TIMESTAMP(3) columns
// (no time zone) are UTC, as Prisma reads them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value.replace(' ', 'T')}Z`));
pg.defaults.parseInputDatesAsUTC = true;

/** The application's search defaults (src/billing/invoices/invoice-input.dto.ts, invoices.service.ts). */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 50;
const HINT_PAGES = 3;

// 1. Token → user → memberships → workspaces: the columns of the application's four statements.
const TOKEN_SQL = `SELECT t."id", t."token_hash", t."prefix", t."user_id", t."workspace_id", t."scopes", t."label",
  t."expires_at", t."revoked_at", t."last_used_at", t."created_at",
  u."id" AS "u_id", u."email" AS "u_email", u."name" AS "u_name", u."password_hash" AS "u_password_hash", u."created_at" AS "u_created_at",
  m."workspace_id" AS "m_workspace_id", m."role"::text AS "m_role", m."created_at" AS "m_created_at",
  w."id" AS "w_id", w."slug" AS "w_slug", w."name" AS "w_name", w."created_at" AS "w_created_at"
FROM "public"."access_tokens" t
JOIN "public"."users" u ON u."id" = t."user_id"
LEFT JOIN "public"."memberships" m ON m."user_id" = u."id"
LEFT JOIN "public"."workspaces" w ON w."id" = m."workspace_id"
WHERE t."token_hash" = $1`;
// 2. The page with its customers: the application's invoice and customer columns, same order and limit.
const PAGE_SQL = `SELECT i."id", i."workspace_id", i."customer_id", i."number", i."status"::text, i."currency",
  i."issue_date", i."due_date", i."total_minor", i."paid_minor", i."notes", i."cancel_reason", i."cancelled_at",
  i."created_via"::text, i."updated_via"::text, i."created_at", i."updated_at",
  c."id" AS "c_id", c."name" AS "c_name", c."email" AS "c_email"
FROM "public"."invoices" i
JOIN "public"."customers" c ON c."id" = i."customer_id"
WHERE i."workspace_id" = $1
ORDER BY i."issue_date" DESC, i."id" ASC LIMIT $2 OFFSET $3`;
// 3. The total: the application's statement, verbatim.
const COUNT_SQL = `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."invoices"."id" FROM "public"."invoices" WHERE "public"."invoices"."workspace_id" = $1 OFFSET $2) AS "sub"`;

interface TokenRow {
  id: string;
  workspace_id: string | null;
  scopes: string[] | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  m_workspace_id: string | null;
  m_role: string | null;
}
interface InvoiceRow {
  id: string;
  number: string;
  status: string;
  currency: string;
  issue_date: string;
  due_date: string;
  total_minor: number;
  paid_minor: number;
  c_id: string;
  c_name: string;
  c_email: string;
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

/** The workspace the token may read in, or why not (the application's checks, in its order). */
async function authorize(req: IncomingMessage): Promise<{ workspaceId: string } | { status: number; message: string }> {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) return { status: 401, message: 'Missing bearer token' };
  const { rows } = await pool.query<TokenRow>(TOKEN_SQL, [hashToken(token)]);
  const record = rows[0];
  if (!record) return { status: 401, message: 'The access token is not valid' };
  if (record.revoked_at) return { status: 401, message: 'The access token has been revoked' };
  if (record.expires_at && record.expires_at.getTime() <= Date.now()) return { status: 401, message: 'The access token has expired' };
  const memberships = rows.filter((r) => r.m_workspace_id);
  const membership = record.workspace_id
    ? memberships.find((m) => m.m_workspace_id === record.workspace_id)
    : memberships.length === 1
      ? memberships[0]
      : undefined;
  if (!membership) return { status: 403, message: 'No workspace to read in' };
  if (
    !record.scopes?.includes(SCOPES.billingRead) ||
    !ROLE_SCOPES[membership.m_role as keyof typeof ROLE_SCOPES]?.includes(SCOPES.billingRead)
  )
    return { status: 403, message: 'Missing scope billing:read' };
  return { workspaceId: membership.m_workspace_id! };
}

/** The REST answer's shape (InvoiceSearchResultDto with every summary field). */
async function search(workspaceId: string, limit: number) {
  const { rows } = await pool.query<InvoiceRow>(PAGE_SQL, [workspaceId, limit + 1, 0]);
  const { rows: counted } = await pool.query<{ _count$_all: string }>(COUNT_SQL, [workspaceId, 0]);
  const total = Number(counted[0]._count$_all);
  const today = new Date().toISOString().slice(0, 10);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const items = page.map((row) => ({
    id: row.id,
    number: row.number,
    customer: { id: row.c_id, name: row.c_name, email: row.c_email },
    status: row.status === 'sent' || row.status === 'overdue' ? (row.due_date < today ? 'overdue' : 'sent') : row.status,
    currency: row.currency,
    total_minor: row.total_minor,
    paid_minor: row.paid_minor,
    balance_minor: row.status === 'cancelled' ? 0 : Math.max(row.total_minor - row.paid_minor, 0),
    issue_date: row.issue_date,
    due_date: row.due_date,
  }));
  const hint =
    total === 0
      ? 'This workspace has no invoices yet.'
      : total > HINT_PAGES * limit
        ? `${total} invoices match and this page shows ${page.length}; add status, customer_email, an issue-date range (issued_from/issued_to) or due_before to narrow them, or pass next_cursor to read on.`
        : undefined;
  return {
    items,
    next_cursor: rows.length > limit && last ? Buffer.from(JSON.stringify([last.issue_date, last.id])).toString('base64url') : null,
    total_matching: total,
    ...(hint ? { hint } : {}),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (req.method !== 'GET' || url.pathname !== '/v1/invoices') return sendJson(res, 404, { message: 'Only GET /v1/invoices' });
  const limit = Number(url.searchParams.get('limit') ?? DEFAULT_LIMIT);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return sendJson(res, 400, { message: `limit must be 1–${MAX_LIMIT}` });
  const auth = await authorize(req);
  if ('status' in auth) return sendJson(res, auth.status, { message: auth.message });
  sendJson(res, 200, await search(auth.workspaceId, limit));
}

/** A token for the demo admin, bound to the demo workspace, as bench/servers/billing-app.ts mints it. */
async function mintToken(): Promise<string> {
  const { rows } = await pool.query<{ user_id: string; workspace_id: string }>(
    `SELECT m."user_id", m."workspace_id" FROM "public"."memberships" m
     JOIN "public"."users" u ON u."id" = m."user_id" JOIN "public"."workspaces" w ON w."id" = m."workspace_id"
     WHERE u."email" = 'admin@demo.test' AND w."slug" = 'demo'`,
  );
  if (!rows[0]) throw new Error('No demo admin in this database: the floor runs after the billing app seeded it');
  const token = generateTokenSecret();
  await pool.query(
    `INSERT INTO "public"."access_tokens" ("id", "token_hash", "prefix", "user_id", "workspace_id", "scopes", "label", "expires_at")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      randomUUID(),
      hashToken(token),
      displayPrefix(token),
      rows[0].user_id,
      rows[0].workspace_id,
      [...ALL_SCOPES],
      'npm run bench (floor)',
      new Date(Date.now() + 3_600_000),
    ],
  );
  return token;
}

try {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must name the bench database');
  const token = await mintToken();
  await serveBare(handle, { server: 'floor (node:http + pg, 3 statements)', token });
} catch (error) {
  fail(error);
}
