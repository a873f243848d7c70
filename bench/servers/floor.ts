// Case 6, the floors: what `GET /v1/invoices?limit=N` costs with nothing but `node:http` and `pg`.
// Both answer the REST route's JSON byte for byte (same items, next_cursor, total_matching, hint),
// so the bench checks them like the route, and both check the bearer token and the workspace as the
// application does. FLOOR_MODE says which work they do (see bench/README.md, "The floors"):
//
//   three-statements (default; the first floor): the SQL the application ran when case 6 was
//     written (captured from Postgres with log_statement=all), folded into the three statements the
//     work needs, unnamed (as the Prisma adapter sent them), no token cache:
//       1. the token by its hash, with its user, the user's memberships and their workspaces (one join)
//       2. the page of invoices with their customer (one join), newest issue date first, limit + 1 rows
//       3. the total count of the workspace's invoices (the application's statement of then)
//   same-guarantee: the application's guarantees and its tricks of today, and nothing else:
//       - the token verified as the application does it (SHA-256 digest, looked up with the
//         application's own statement: token, user and memberships in one; refused when unknown,
//         revoked or expired; accepted on a surface it was issued for, `api` here);
//       - verified tokens kept in the application's own TokenCache (apps/billing/src/identity) for
//         at most 1 s (TOKEN_CACHE_TTL_MS as the application reads it), answering only while a
//         connection LISTENs on identity_changed and emptied by every notification, as the
//         application's IdentityChangeListener does: a revocation is seen within 1 s;
//       - the workspace (a bound token's must still be the user's; one named by X-Workspace-Id or
//         ?workspace_id= must be it) and billing:read in the token's scopes and in the role's;
//       - the page and its total in the application's ONE statement, as a named prepared statement.
//
// Same pool size as the application (DATABASE_POOL_SIZE, 10), no transaction (the application reads
// outside one too). Needs the bench database after the billing app seeded it (it mints its own token
// for the demo admin in the demo workspace).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ALL_SCOPES, APP_ROLE_SCOPES as ROLE_SCOPES, SCOPES } from '../../apps/billing/src/app.scopes.js';
import type { Principal, PrincipalMembership } from '../../apps/billing/src/identity/principal.js';
import { TokenCache, tokenCacheOptionsFromEnv } from '../../apps/billing/src/identity/token-cache.js';
import { displayPrefix, generateTokenSecret, hashToken, looksLikePersonalToken } from '../../apps/billing/src/identity/token-secret.js';
import { sendJson, serveBare } from './bare-http.js';
import { fail } from './lifecycle.js';

const MODES = ['three-statements', 'same-guarantee'] as const;
const mode = (process.env.FLOOR_MODE || 'three-statements') as (typeof MODES)[number];

// Dates as the application formats them: DATE columns stay 'YYYY-MM-DD'; TIMESTAMP(3) columns
// (no time zone) are UTC, as Prisma reads them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value.replace(' ', 'T')}Z`));
pg.defaults.parseInputDatesAsUTC = true;

/** The application's search defaults (src/billing/invoices/invoice-input.dto.ts, invoices.service.ts). */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 50;
const HINT_PAGES = 3;

// --- three-statements ------------------------------------------------------------------------
// 1. Token → user → memberships → workspaces: the columns of the application's four statements of then.
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
// 2. The page with its customers: the application's invoice and customer columns of then, same order
// and limit (named as today's statement names them, so both modes share the answer's code).
const PAGE_SQL = `SELECT i."id", i."workspace_id", i."customer_id", i."number", i."status"::text AS "status", i."currency",
  i."issue_date" AS "issueDate", i."due_date" AS "dueDate", i."total_minor" AS "totalMinor", i."paid_minor" AS "paidMinor",
  i."notes", i."cancel_reason", i."cancelled_at", i."created_via"::text, i."updated_via"::text, i."created_at", i."updated_at",
  c."id" AS "customerId", c."name" AS "customerName", c."email" AS "customerEmail"
FROM "public"."invoices" i
JOIN "public"."customers" c ON c."id" = i."customer_id"
WHERE i."workspace_id" = $1
ORDER BY i."issue_date" DESC, i."id" ASC LIMIT $2 OFFSET $3`;
// 3. The total: the application's statement of then, verbatim.
const COUNT_SQL = `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."invoices"."id" FROM "public"."invoices" WHERE "public"."invoices"."workspace_id" = $1 OFFSET $2) AS "sub"`;

// --- same-guarantee: today's statements of the application, verbatim ------------------------------
// PersonalTokenService.lookup (apps/billing/src/identity/personal-token.service.ts), keyed by the digest.
const VERIFY_TOKEN_SQL = `SELECT t.id::text AS "id", t.user_id::text AS "userId", t.workspace_id::text AS "workspaceId", t.scopes AS "scopes", COALESCE(t.surfaces, ARRAY['mcp']) AS "surfaces", u.email AS "email", t.revoked_at IS NOT NULL AS "revoked", (extract(epoch FROM t.expires_at) * 1000)::float8 AS "expiresAtMs", COALESCE( json_agg(json_build_object('workspaceId', m.workspace_id, 'slug', w.slug, 'role', m.role) ORDER BY m.created_at, w.slug) FILTER (WHERE m.workspace_id IS NOT NULL), '[]'::json ) AS "memberships" FROM access_tokens t JOIN users u ON u.id = t.user_id LEFT JOIN memberships m ON m.user_id = t.user_id LEFT JOIN workspaces w ON w.id = m.workspace_id WHERE t.token_hash = $1 GROUP BY t.id, u.id`;
// InvoicesService.search (apps/billing/src/billing/invoices/invoices.service.ts) without filters or
// cursor: the total and the page (limit + 1 rows, each with its customer) in one statement.
const SEARCH_SQL = `SELECT n.total, p.* FROM (SELECT count(*)::int AS total FROM invoices i WHERE i.workspace_id = $1::uuid) n LEFT JOIN LATERAL ( SELECT i.id::text AS "id", i.number AS "number", i.status::text AS "status", i.currency AS "currency", to_char(i.issue_date, 'YYYY-MM-DD') AS "issueDate", to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate", i.total_minor AS "totalMinor", i.paid_minor AS "paidMinor", c.id::text AS "customerId", c.name AS "customerName", c.email AS "customerEmail" FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.workspace_id = $2::uuid ORDER BY i.issue_date DESC, i.id ASC LIMIT $3 ) p ON true`;
/** The channel the application's identity_changed migration notifies (IdentityChangeListener's). */
const IDENTITY_CHANGED = 'identity_changed';

interface TokenRow {
  id: string;
  workspace_id: string | null;
  scopes: string[] | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  m_workspace_id: string | null;
  m_role: string | null;
}
/** One invoice of the page, as today's statement names its columns (the three-statement page too). */
type PageRow = Record<'id' | 'number' | 'status' | 'currency' | 'issueDate' | 'dueDate', string> &
  Record<'customerId' | 'customerName' | 'customerEmail', string> & { totalMinor: number; paidMinor: number };
/** A row of VERIFY_TOKEN_SQL. */
interface VerifiedTokenRow extends Pick<Principal, 'userId' | 'email' | 'scopes' | 'surfaces' | 'memberships'> {
  id: string;
  workspaceId: string | null;
  revoked: boolean;
  expiresAtMs: number | null;
}
type Authorization = { workspaceId: string } | { status: number; message: string };
const refused = (status: number, message: string): Authorization => ({ status, message });

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  // The application's pool is pipelined (for its transactions; a lone read sends one statement either way).
  pipeline: mode === 'same-guarantee',
});

/** three-statements: the workspace the token may read in, or why not (the application's checks of then, in its order). */
async function authorizeUncached(req: IncomingMessage): Promise<Authorization> {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) return refused(401, 'Missing bearer token');
  const { rows } = await pool.query<TokenRow>(TOKEN_SQL, [hashToken(token)]);
  const record = rows[0];
  if (!record) return refused(401, 'The access token is not valid');
  if (record.revoked_at) return refused(401, 'The access token has been revoked');
  if (record.expires_at && record.expires_at.getTime() <= Date.now()) return refused(401, 'The access token has expired');
  const memberships = rows.filter((r) => r.m_workspace_id);
  const membership = record.workspace_id
    ? memberships.find((m) => m.m_workspace_id === record.workspace_id)
    : memberships.length === 1
      ? memberships[0]
      : undefined;
  if (!membership) return refused(403, 'No workspace to read in');
  if (
    !record.scopes?.includes(SCOPES.billingRead) ||
    !ROLE_SCOPES[membership.m_role as keyof typeof ROLE_SCOPES]?.includes(SCOPES.billingRead)
  )
    return refused(403, 'Missing scope billing:read');
  return { workspaceId: membership.m_workspace_id! };
}

/** three-statements: the page, then the total. */
async function readThreeStatements(workspaceId: string, limit: number): Promise<{ found: PageRow[]; total: number }> {
  const { rows } = await pool.query<PageRow>(PAGE_SQL, [workspaceId, limit + 1, 0]);
  const { rows: counted } = await pool.query<{ _count$_all: string }>(COUNT_SQL, [workspaceId, 0]);
  return { found: rows, total: Number(counted[0]._count$_all) };
}

// --- same-guarantee ----------------------------------------------------------------------------
const tokens = new TokenCache(tokenCacheOptionsFromEnv(process.env));
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** PersonalTokenService.check: the cache, else the one statement (a verified token then cached, tied to the cache's state when the lookup began). */
async function verifiedToken(token: string): Promise<Principal | string> {
  const digest = hashToken(token);
  const cached = tokens.get(digest);
  if (cached) return cached;
  const ticket = tokens.ticket();
  const { rows } = await pool.query<VerifiedTokenRow>({ name: 'floor-verify-token', text: VERIFY_TOKEN_SQL, values: [digest] });
  const found = rows[0];
  if (!found) return 'The access token is not valid';
  if (found.revoked) return 'The access token has been revoked';
  if (found.expiresAtMs !== null && found.expiresAtMs <= Date.now()) return 'The access token has expired';
  const { userId, email, scopes, surfaces, memberships, workspaceId } = found;
  const principal: Principal = {
    userId,
    email,
    tokenId: found.id,
    kind: 'personal',
    scopes,
    surfaces,
    memberships,
    ...(workspaceId ? { workspaceId } : {}),
  };
  tokens.set(digest, principal, found.expiresAtMs, ticket);
  return principal;
}

/** The membership the request acts in (WorkspaceResolver.resolve, for a route that takes no workspace_id in its body). */
function workspaceOf(req: IncomingMessage, url: URL, principal: Principal): PrincipalMembership | string {
  const named = (req.headers['x-workspace-id'] as string | undefined)?.trim() || url.searchParams.get('workspace_id') || undefined;
  const { memberships } = principal;
  if (principal.workspaceId) {
    const bound = memberships.find((m) => m.workspaceId === principal.workspaceId);
    if (!bound) return 'The workspace of this token is no longer yours';
    return named && named !== bound.workspaceId && named !== bound.slug ? `This token is bound to workspace "${bound.slug}"` : bound;
  }
  if (!named) return memberships.length === 1 ? memberships[0] : 'Name the workspace';
  return memberships.find((m) => m.workspaceId === named || m.slug === named) ?? `Workspace "${named}" was not found among your workspaces`;
}

/** same-guarantee: authentication and surface (McpAuthenticator), workspace (WorkspaceGuard), scope and role (ScopeGuard). */
async function authorizeCached(req: IncomingMessage, url: URL): Promise<Authorization> {
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return refused(401, 'Authentication required');
  const principal = looksLikePersonalToken(token) ? await verifiedToken(token) : 'The access token is not valid';
  if (typeof principal === 'string') return refused(401, principal);
  if (!principal.surfaces.includes('api')) return refused(403, 'This token is not issued for the REST API');
  const membership = workspaceOf(req, url, principal);
  if (typeof membership === 'string') return refused(403, membership);
  if (!principal.scopes.includes(SCOPES.billingRead)) return refused(403, 'Insufficient scope: billing:read');
  if (!ROLE_SCOPES[membership.role].includes(SCOPES.billingRead)) return refused(403, 'Your role does not allow billing:read');
  return { workspaceId: membership.workspaceId };
}

/** same-guarantee: the total and the page in one named prepared statement. */
async function readOneStatement(workspaceId: string, limit: number): Promise<{ found: PageRow[]; total: number }> {
  const { rows } = await pool.query<{ total: number } & (PageRow | { id: null })>({
    name: 'floor-invoice-search',
    text: SEARCH_SQL,
    values: [workspaceId, workspaceId, limit + 1],
  });
  return { found: rows.filter((row): row is { total: number } & PageRow => row.id !== null), total: rows[0]?.total ?? 0 };
}

/** The application's cache answers only while it hears identity_changed; here it listens from the boot on. */
async function listenForIdentityChanges(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  client.on('error', () => tokens.disable());
  client.on('end', () => tokens.disable());
  client.on('notification', (message) => message.channel === IDENTITY_CHANGED && tokens.clear());
  await client.connect();
  await client.query(`LISTEN ${IDENTITY_CHANGED}`);
  tokens.enable();
}

// --- both --------------------------------------------------------------------------------------
/** The REST answer's shape (InvoiceSearchResultDto with every summary field). */
function answer({ found, total }: { found: PageRow[]; total: number }, limit: number) {
  const today = new Date().toISOString().slice(0, 10);
  const page = found.slice(0, limit);
  const last = page.at(-1);
  const items = page.map((row) => ({
    id: row.id,
    number: row.number,
    customer: { id: row.customerId, name: row.customerName, email: row.customerEmail },
    status: row.status === 'sent' || row.status === 'overdue' ? (row.dueDate < today ? 'overdue' : 'sent') : row.status,
    currency: row.currency,
    total_minor: row.totalMinor,
    paid_minor: row.paidMinor,
    balance_minor: row.status === 'cancelled' ? 0 : Math.max(row.totalMinor - row.paidMinor, 0),
    issue_date: row.issueDate,
    due_date: row.dueDate,
  }));
  const hint =
    total === 0
      ? 'This workspace has no invoices yet.'
      : total > HINT_PAGES * limit
        ? `${total} invoices match and this page shows ${page.length}; add status, customer_email, an issue-date range (issued_from/issued_to) or due_before to narrow them, or pass next_cursor to read on.`
        : undefined;
  return {
    items,
    next_cursor: found.length > limit && last ? Buffer.from(JSON.stringify([last.issueDate, last.id])).toString('base64url') : null,
    total_matching: total,
    ...(hint ? { hint } : {}),
  };
}

const floor =
  mode === 'same-guarantee'
    ? { authorize: authorizeCached, read: readOneStatement }
    : { authorize: authorizeUncached, read: readThreeStatements };

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (req.method !== 'GET' || url.pathname !== '/v1/invoices') return sendJson(res, 404, { message: 'Only GET /v1/invoices' });
  const limit = Number(url.searchParams.get('limit') ?? DEFAULT_LIMIT);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return sendJson(res, 400, { message: `limit must be 1–${MAX_LIMIT}` });
  const auth = await floor.authorize(req, url);
  if ('status' in auth) return sendJson(res, auth.status, { message: auth.message });
  sendJson(res, 200, answer(await floor.read(auth.workspaceId, limit), limit));
}

/** A token for the demo admin, bound to the demo workspace, for both surfaces, as bench/servers/billing-app.ts mints it. */
async function mintToken(): Promise<string> {
  const { rows } = await pool.query<{ user_id: string; workspace_id: string }>(
    `SELECT m."user_id", m."workspace_id" FROM "public"."memberships" m
     JOIN "public"."users" u ON u."id" = m."user_id" JOIN "public"."workspaces" w ON w."id" = m."workspace_id"
     WHERE u."email" = 'admin@demo.test' AND w."slug" = 'demo'`,
  );
  if (!rows[0]) throw new Error('No demo admin in this database: the floor runs after the billing app seeded it');
  const token = generateTokenSecret();
  await pool.query(
    `INSERT INTO "public"."access_tokens" ("id", "token_hash", "prefix", "user_id", "workspace_id", "scopes", "surfaces", "label", "expires_at")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      randomUUID(),
      hashToken(token),
      displayPrefix(token),
      rows[0].user_id,
      rows[0].workspace_id,
      [...ALL_SCOPES],
      ['mcp', 'api'],
      `npm run bench (floor, ${mode})`,
      new Date(Date.now() + 3_600_000),
    ],
  );
  return token;
}

try {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must name the bench database');
  if (!MODES.includes(mode)) throw new Error(`FLOOR_MODE must be one of ${MODES.join(', ')}, got "${mode}"`);
  const token = await mintToken();
  if (mode === 'same-guarantee') await listenForIdentityChanges();
  const server =
    mode === 'same-guarantee'
      ? 'floor (node:http + pg, same guarantees: 1 s token cache, one prepared statement)'
      : 'floor (node:http + pg, 3 statements)';
  await serveBare(handle, { server, token });
} catch (error) {
  fail(error);
}
