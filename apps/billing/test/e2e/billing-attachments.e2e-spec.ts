import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MAX_ATTACHMENT_BYTES } from '../../src/billing/attachments/attachment-files.js';
import { PendingAttachmentsCleanup } from '../../src/billing/attachments/pending-attachments.cleanup.js';
import { RequestContext } from '../../src/context/request-context.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { restCall } from '../support/rest-http.js';
import { storedBytes } from '../support/stored-files.js';
import { callStateless, callTool, toolsByName } from '@nest-mcp/core/testing';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A small "PDF": real bytes, including ones that are not valid UTF-8. */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n% receipt of transfer 260604017724349474I\n'),
  Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a]),
  randomBytes(2048),
]);

describe('billing attachments: upload, metadata, bytes (real database)', () => {
  let t: BillingTestApp;
  let accountant: string;
  let viewer: string;
  let other: string;
  let readOnlyOther: string;
  let demoId: string;
  let invoiceId: string;
  let paymentId: string;
  let otherInvoiceId: string;

  before(async () => {
    t = await startBillingApp();
    accountant = await t.token({ email: 'accountant@demo.test', scopes: ['billing:read', 'billing:write'] });
    viewer = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read'] });
    await RequestContext.run({ channel: 'system' }, async () => {
      const db = t.prisma.client;
      demoId = (await db.workspace.findUniqueOrThrow({ where: { slug: 'demo' } })).id;
      const workspace = await db.workspace.create({ data: { slug: 'files-other', name: 'Other Files Co' } });
      const user = await db.user.create({ data: { email: 'owner@files-other.test', name: 'Other Owner' } });
      await db.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
      const invoiceData = (workspaceId: string, customerId: string, number: string) =>
        ({
          workspaceId,
          customerId,
          number,
          status: 'sent',
          currency: 'MXN',
          issueDate: new Date('2026-01-01T00:00:00.000Z'),
          dueDate: new Date('2026-12-31T00:00:00.000Z'),
          totalMinor: 10_000,
        }) as Prisma.InvoiceUncheckedCreateInput;
      const demoCustomer = await db.customer.create({
        data: { workspaceId: demoId, name: 'Files Client', email: 'files-client@demo.test' },
      });
      const otherCustomer = await db.customer.create({
        data: { workspaceId: workspace.id, name: 'Other Client', email: 'client@files-other.test' },
      });
      invoiceId = (await db.invoice.create({ data: invoiceData(demoId, demoCustomer.id, 'FILES-0001') })).id;
      otherInvoiceId = (await db.invoice.create({ data: invoiceData(workspace.id, otherCustomer.id, 'FILES-0001') })).id;
      paymentId = (
        await db.payment.create({
          data: {
            workspaceId: demoId,
            invoiceId,
            amountMinor: 1_000,
            currency: 'MXN',
            method: 'transfer',
            paidAt: new Date(),
            reference: 'FILES-REF-1',
          },
        })
      ).id;
    });
    other = await t.token({ email: 'owner@files-other.test', workspaceSlug: 'files-other' });
    readOnlyOther = await t.token({ email: 'owner@files-other.test', workspaceSlug: 'files-other', scopes: ['billing:read'] });
  });
  after(() => t.close());

  const mcp = (token: string, name: string, args: Record<string, unknown>) => callTool(t.mcpUrl, name, args, { token });

  const rest = (token: string | undefined, method: string, path: string, body?: unknown) => restCall(t, token, method, path, body);

  async function fetchBytes(token: string | undefined, path: string) {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: token ? bearer(token) : {} });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  const upload = (token: string, args: Record<string, unknown>) => mcp(token, 'billing_attachment_upload', args);
  const download = (token: string, id: string) => mcp(token, 'billing_attachment_download', { attachment_id: id });
  const attachmentCount = () => t.prisma.client.attachment.count();

  it('publishes upload (write) and download (read-only, no bytes) with typed outputs', async () => {
    const list = (token: string) => toolsByName(t.mcpUrl, token);
    const asViewer = await list(viewer);
    const asAccountant = await list(accountant);
    assert.ok(!asViewer.has('billing_attachment_upload'));
    assert.ok(asViewer.has('billing_attachment_download'));
    const uploadTool = asAccountant.get('billing_attachment_upload');
    const downloadTool = asAccountant.get('billing_attachment_download');
    assert.deepEqual([...uploadTool.inputSchema.required].sort(), ['content_base64', 'content_type', 'filename']);
    assert.equal(uploadTool.inputSchema.properties.content_base64.contentEncoding, 'base64');
    assert.match(uploadTool.inputSchema.properties.content_base64.description, /10 MiB/);
    assert.equal(uploadTool.annotations.readOnlyHint, false);
    assert.equal(downloadTool.annotations.readOnlyHint, true);
    assert.deepEqual(downloadTool.inputSchema.required, ['attachment_id']);
    for (const tool of [uploadTool, downloadTool]) {
      for (const part of ['When to use:', 'Never use for:', 'Side effects:', 'Success criteria:', 'Fallback:'])
        assert.ok(tool.description.includes(part), `${tool.name}: ${part}`);
      const data = tool.outputSchema.properties.data;
      assert.ok(data.properties.download_path && data.properties.sha256 && data.properties.size_bytes);
      assert.ok(!('content_base64' in data.properties) && !('content' in data.properties));
      assert.deepEqual(data.properties.invoice_id.type, ['string', 'null']);
    }
  });

  it('upload over MCP → metadata over MCP (never the bytes) → bytes over REST with a token, same SHA-256', async () => {
    const uploaded = await upload(accountant, {
      filename: 'comprobante transferencia.pdf',
      content_type: 'application/pdf',
      content_base64: PDF.toString('base64'),
      payment_id: paymentId,
      idempotency_key: `upload-${randomUUID()}`,
    });
    assert.equal(uploaded.isError, false, JSON.stringify(uploaded.envelope));
    const data = uploaded.envelope.data;
    assert.equal(data.filename, 'comprobante transferencia.pdf');
    assert.equal(data.content_type, 'application/pdf');
    assert.equal(data.size_bytes, PDF.length);
    assert.equal(data.sha256, sha256(PDF));
    assert.equal(data.payment_id, paymentId);
    assert.equal(data.invoice_id, null);
    assert.equal(data.created_via, 'mcp');
    assert.equal(data.download_path, `/v1/attachments/${data.id}/content`);
    assert.deepEqual(uploaded.body.result.structuredContent, uploaded.envelope);
    assert.ok(!uploaded.text.includes(PDF.toString('base64').slice(0, 200)), 'the upload answer does not echo the bytes');

    const row = await t.prisma.client.attachment.findUniqueOrThrow({ where: { id: data.id } });
    assert.equal(row.workspaceId, demoId);
    assert.equal(row.createdVia, 'mcp');
    assert.equal(row.content, null, 'new files keep their bytes in parts');
    assert.equal(sha256(await storedBytes(t.prisma, data.id)), sha256(PDF));
    assert.equal(data.parts, 1);
    assert.equal(data.resource_uri, `billing://attachments/${data.id}`);
    const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { target: 'billing_attachment_upload', outcome: 'success' },
    });
    assert.equal((audit.arguments as any).content_base64, `[${PDF.toString('base64').length} bytes omitted]`);

    const described = await download(viewer, data.id);
    assert.equal(described.isError, false);
    assert.equal(described.envelope.safety, 'read_only');
    assert.deepEqual(described.envelope.data, data);
    assert.match(described.envelope.data.download_instructions, /API token with the billing:read scope/);
    assert.ok(!described.text.includes(PDF.toString('base64').slice(0, 100)), 'metadata never carries the bytes');
    assert.ok(!described.text.includes('receipt of transfer'), 'nor the decoded bytes');

    const fetched = await fetchBytes(viewer, data.download_path);
    assert.equal(fetched.status, 200);
    assert.equal(sha256(fetched.bytes), data.sha256);
    assert.deepEqual(fetched.bytes, PDF);
    assert.equal(fetched.headers.get('content-type'), 'application/pdf');
    assert.equal(fetched.headers.get('content-length'), String(PDF.length));
    assert.equal(
      fetched.headers.get('content-disposition'),
      `attachment; filename="comprobante transferencia.pdf"; filename*=UTF-8''comprobante%20transferencia.pdf`,
    );
    assert.equal(fetched.headers.get('x-content-type-options'), 'nosniff');

    assert.equal((await fetchBytes(undefined, data.download_path)).status, 401);
  });

  it('gives the same metadata over REST and MCP; REST uploads are created_via api', async () => {
    const bytes = Buffer.from('<html><script>alert(1)</script></html>');
    const viaRest = await rest(accountant, 'POST', '/v1/attachments', {
      filename: 'recibo "mayo";ñ.html',
      content_type: 'text/html',
      content_base64: bytes.toString('base64'),
      invoice_id: invoiceId,
    });
    assert.equal(viaRest.status, 201, JSON.stringify(viaRest.body));
    assert.equal(viaRest.body.created_via, 'api');
    assert.equal(viaRest.body.invoice_id, invoiceId);
    assert.equal(viaRest.body.sha256, sha256(bytes));
    assert.ok(!('content_base64' in viaRest.body));

    const viaMcp = await download(viewer, viaRest.body.id);
    const viaRestGet = await rest(viewer, 'GET', `/v1/attachments/${viaRest.body.id}`);
    assert.equal(viaRestGet.status, 200);
    assert.deepEqual(viaMcp.envelope.data, viaRestGet.body);
    assert.deepEqual(viaRestGet.body, viaRest.body);

    // A stored HTML file is served as a download, never rendered: nosniff, sandbox, attachment with a safe name.
    const fetched = await fetchBytes(viewer, viaRest.body.download_path);
    assert.deepEqual(fetched.bytes, bytes);
    assert.equal(
      fetched.headers.get('content-disposition'),
      `attachment; filename="recibo _mayo__n.html"; filename*=UTF-8''recibo%20%22mayo%22%3B%C3%B1.html`,
    );
    assert.equal(fetched.headers.get('x-content-type-options'), 'nosniff');
    assert.match(fetched.headers.get('content-security-policy') ?? '', /sandbox/);
  });

  describe('MCP resources: the bytes for a client without a REST token', () => {
    const read = (token: string, uri: string) => callStateless(t.mcpUrl, 'resources/read', { uri }, { token });

    it('reads an upload as billing://attachments/{id}: a binary file as a base64 blob, UTF-8 text as text, other text as a blob', async () => {
      const mcpOnly = await t.token({ email: 'viewer@demo.test', scopes: ['billing:read'], surfaces: ['mcp'] });
      const files = [
        { filename: 'receipt.pdf', content_type: 'application/pdf', bytes: PDF, as: 'blob' },
        { filename: 'notes.txt', content_type: 'text/plain', bytes: Buffer.from('Pagó ✓\r\n=1+1;2\n'), as: 'text' },
        { filename: 'latin1.csv', content_type: 'text/csv', bytes: Buffer.from([0x4d, 0xe9, 0x78, 0x0d, 0x0a]), as: 'blob' },
      ];
      for (const file of files) {
        const { filename, content_type } = file;
        const uploaded = await upload(accountant, { filename, content_type, content_base64: file.bytes.toString('base64') });
        assert.equal(uploaded.envelope.ok, true, JSON.stringify(uploaded.envelope.errors));
        const { id, resource_uri } = uploaded.envelope.data;
        // The agent's token is for MCP only: REST refuses it, the resource is how it gets the bytes.
        const refused = await fetchBytes(mcpOnly, `/v1/attachments/${id}/content`);
        assert.equal(refused.status, 403);
        assert.match(refused.bytes.toString(), /wrong_channel/);
        const { body } = await read(mcpOnly, resource_uri);
        assert.equal(body.error, undefined, JSON.stringify(body.error));
        const [content] = body.result.contents;
        assert.equal(content.uri, resource_uri);
        assert.equal(content.mimeType, file.content_type);
        const bytes = file.as === 'text' ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
        assert.equal(content[file.as === 'text' ? 'blob' : 'text'], undefined, `${file.filename} is read as ${file.as}`);
        assert.ok(bytes.equals(file.bytes), file.filename);
        // Its one part is the same bytes.
        const part = await read(mcpOnly, `${resource_uri}/parts/1`);
        assert.deepEqual(part.body.result.contents[0], { ...content, uri: `${resource_uri}/parts/1` });
      }
    });

    it('lists both templates for a reader, and keeps other workspaces, unknown ids and bad part numbers out (-32602)', async () => {
      const { body } = await callStateless(t.mcpUrl, 'resources/templates/list', {}, { token: viewer });
      const templates = body.result.resourceTemplates.map((template: { uriTemplate: string }) => template.uriTemplate);
      assert.ok(templates.includes('billing://attachments/{attachment_id}'));
      assert.ok(templates.includes('billing://attachments/{attachment_id}/parts/{part}'));

      const theirs = await upload(other, {
        filename: 'other-only.txt',
        content_type: 'text/plain',
        content_base64: Buffer.from('other secret').toString('base64'),
      });
      const uri = theirs.envelope.data.resource_uri;
      for (const [token, target] of [
        [viewer, uri],
        [viewer, `${uri}/parts/1`],
        [viewer, `billing://attachments/${randomUUID()}`],
        [viewer, 'billing://attachments/not-a-uuid'],
        [readOnlyOther, `${uri}/parts/0`],
        [readOnlyOther, `${uri}/parts/2`],
        [readOnlyOther, `${uri}/parts/01`],
      ] as const) {
        const answer = await read(token, target);
        assert.equal(answer.body.error?.code, -32602, `${target}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.error.message, /was not found in this workspace/);
        assert.ok(!JSON.stringify(answer.body).includes('other secret'));
      }
      assert.equal((await read(readOnlyOther, uri)).body.result.contents[0].text, 'other secret');
    });
  });

  describe('pending files and files stored before parts', () => {
    /** A file as an export leaves it while it writes: pending, with a part. */
    async function pendingFile(createdAt = new Date()): Promise<string> {
      return RequestContext.run({ channel: 'system' }, async () => {
        const row = await t.prisma.client.attachment.create({
          data: {
            workspaceId: demoId,
            filename: 'statement-in-progress.csv',
            contentType: 'text/csv',
            sizeBytes: 0,
            sha256: '',
            status: 'pending',
            createdAt,
            parts: { create: { seq: 1, bytes: Buffer.from('record_type\r\n') } },
          },
        });
        return row.id;
      });
    }

    it('a pending file is seen by no read: metadata (MCP, REST), bytes (REST) and its resources are not found', async () => {
      const id = await pendingFile();
      assert.equal((await download(viewer, id)).envelope.errors[0].code, 'not_found');
      assert.equal((await rest(viewer, 'GET', `/v1/attachments/${id}`)).status, 404);
      assert.equal((await fetchBytes(viewer, `/v1/attachments/${id}/content`)).status, 404);
      for (const uri of [`billing://attachments/${id}`, `billing://attachments/${id}/parts/1`]) {
        const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri }, { token: viewer });
        assert.equal(body.error?.code, -32602, uri);
      }
    });

    it('a file stored before parts existed (its bytes in attachments.content) is read as its one part everywhere', async () => {
      const bytes = Buffer.concat([Buffer.from('legacy receipt '), randomBytes(64)]);
      const id = randomUUID();
      // As the table held files before the parts migration: `content` set, no part.
      await t.prisma.sql(Prisma.sql`
        INSERT INTO attachments (id, workspace_id, filename, content_type, size_bytes, sha256, content, created_via, updated_via)
        VALUES (${id}::uuid, ${demoId}::uuid, 'legacy.bin', 'application/octet-stream', ${bytes.length}::int, ${sha256(bytes)}, ${bytes},
                'api', 'api')`);
      const described = await download(viewer, id);
      assert.equal(described.envelope.data.parts, 1);
      assert.equal(described.envelope.data.size_bytes, bytes.length);
      const fetched = await fetchBytes(viewer, described.envelope.data.download_path);
      assert.equal(fetched.status, 200);
      assert.ok(fetched.bytes.equals(bytes));
      for (const uri of [`billing://attachments/${id}`, `billing://attachments/${id}/parts/1`]) {
        const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri }, { token: viewer });
        assert.ok(Buffer.from(body.result.contents[0].blob, 'base64').equals(bytes), uri);
      }
    });

    it('the periodic cleanup deletes pending files older than the task run limit, with their parts; newer and ready ones stay', async () => {
      const stale = await pendingFile(new Date(Date.now() - 24 * 3600_000));
      const fresh = await pendingFile();
      const ready = (
        await upload(accountant, {
          filename: 'kept.txt',
          content_type: 'text/plain',
          content_base64: Buffer.from('kept').toString('base64'),
        })
      ).envelope.data.id;
      const deleted = await t.app.get(PendingAttachmentsCleanup).run();
      assert.ok(deleted >= 1, `${deleted} deleted`);
      const left = await t.prisma.client.attachment.findMany({ where: { id: { in: [stale, fresh, ready] } }, select: { id: true } });
      assert.deepEqual(left.map((row) => row.id).sort(), [fresh, ready].sort());
      const parts = await t.prisma.sql<{ n: number }>(
        Prisma.sql`SELECT count(*)::int AS n FROM attachment_parts WHERE attachment_id = ${stale}::uuid`,
      );
      assert.equal(parts.rows[0].n, 0);
    });
  });

  describe('size cap', () => {
    it('refuses a file one byte over 10 MiB, over MCP and REST, saying the cap; nothing stored', async () => {
      const before = await attachmentCount();
      const content_base64 = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 7).toString('base64');
      const args = { filename: 'huge.bin', content_type: 'application/octet-stream', content_base64 };
      const { envelope, isError } = await upload(accountant, args);
      assert.equal(isError, true);
      assert.equal(envelope.errors[0].code, 'attachment_too_large');
      assert.equal(envelope.errors[0].field, 'content_base64');
      assert.match(envelope.errors[0].message, /The file is 10485761 bytes \(10\.00 MiB\); the cap is 10 MiB \(10485760 bytes\)/);
      assert.match(envelope.errors[0].message_es, /10 MiB/);
      const viaRest = await rest(accountant, 'POST', '/v1/attachments', args);
      assert.equal(viaRest.status, 413);
      assert.match(viaRest.body.message, /the cap is 10 MiB/);
      assert.equal(await attachmentCount(), before);
      const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'billing_attachment_upload', outcome: 'failed' },
        orderBy: { occurredAt: 'desc' },
      });
      assert.equal(audit.errorCode, 'attachment_too_large');
    });

    it('accepts a file of exactly 10 MiB and serves it back intact', async () => {
      const bytes = randomBytes(MAX_ATTACHMENT_BYTES);
      const uploaded = await upload(accountant, {
        filename: 'exactly-10MiB.bin',
        content_type: 'application/octet-stream',
        content_base64: bytes.toString('base64'),
      });
      assert.equal(uploaded.envelope.ok, true, JSON.stringify(uploaded.envelope.errors));
      assert.equal(uploaded.envelope.data.size_bytes, MAX_ATTACHMENT_BYTES);
      const fetched = await fetchBytes(viewer, uploaded.envelope.data.download_path);
      assert.equal(fetched.status, 200);
      assert.equal(sha256(fetched.bytes), sha256(bytes));
    });
  });

  describe('validation and links', () => {
    const valid = () => ({ filename: 'ok.txt', content_type: 'text/plain', content_base64: Buffer.from('hello').toString('base64') });
    const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
      ['a path in the filename', { filename: '../../etc/passwd' }, 'filename', /bare file name .*no \/ or \\/],
      ['a Windows path in the filename', { filename: 'C:\\temp\\a.pdf' }, 'filename', /bare file name/],
      ['an empty filename', { filename: '' }, 'filename', /1–255 characters|bare file name/],
      ['a filename over 255 characters', { filename: `${'a'.repeat(256)}.pdf` }, 'filename', /1–255 characters/],
      ['a content type that is not a MIME type', { content_type: 'pdf' }, 'content_type', /MIME type such as application\/pdf/],
      ['content that is not base64', { content_base64: 'not base64!!' }, 'content_base64', /standard base64/],
      ['a data: URL instead of base64', { content_base64: 'data:text/plain;base64,aGVsbG8=' }, 'content_base64', /without a data: prefix/],
      ['empty content', { content_base64: '' }, 'content_base64', /must not be empty/],
      ['a non-UUID invoice id', { invoice_id: 'FILES-0001' }, 'invoice_id', /invoice UUID/],
    ];
    for (const [label, patch, field, message] of cases) {
      it(`refuses ${label} (MCP: the field and what to do; REST: 400)`, async () => {
        const before = await attachmentCount();
        const args = { ...valid(), ...patch };
        const { envelope, isError } = await upload(accountant, args);
        assert.equal(isError, true);
        const error = envelope.errors.find((e) => e.field === field);
        assert.ok(error, JSON.stringify(envelope.errors));
        assert.equal(error.code, 'invalid_argument');
        assert.match(error.message, message);
        assert.match(error.message, /call billing_attachment_upload again/);
        assert.equal((await rest(accountant, 'POST', '/v1/attachments', args)).status, 400);
        assert.equal(await attachmentCount(), before);
      });
    }

    it('refuses both an invoice and a payment link', async () => {
      const { envelope } = await upload(accountant, { ...valid(), invoice_id: invoiceId, payment_id: paymentId });
      assert.equal(envelope.errors[0].code, 'too_many_links');
    });

    it('answers unknown invoices, payments and attachments with not_found and a hint', async () => {
      const missing = randomUUID();
      const byInvoice = await upload(accountant, { ...valid(), invoice_id: missing });
      assert.equal(byInvoice.envelope.errors[0].code, 'not_found');
      assert.match(
        byInvoice.envelope.errors[0].message,
        new RegExp(`Invoice ${missing} was not found in this workspace; check the invoice id, or upload the file without invoice_id`),
      );
      const byPayment = await upload(accountant, { ...valid(), payment_id: missing });
      assert.match(byPayment.envelope.errors[0].message, /Payment .* was not found in this workspace/);
      const described = await download(viewer, missing);
      assert.equal(described.envelope.errors[0].code, 'not_found');
      assert.match(described.envelope.errors[0].message, /Attachment .* was not found in this workspace; check the attachment id/);
      assert.equal((await rest(viewer, 'GET', `/v1/attachments/${missing}`)).status, 404);
      assert.equal((await fetchBytes(viewer, `/v1/attachments/${missing}/content`)).status, 404);
      assert.equal((await rest(viewer, 'GET', '/v1/attachments/not-a-uuid')).status, 400);
      const badId = await mcp(viewer, 'billing_attachment_download', { attachment_id: 'nope' });
      assert.equal(badId.envelope.errors[0].field, 'attachment_id');
    });

    it('needs billing:write to upload: a viewer is refused over MCP (a tool error) and REST (403), nothing stored', async () => {
      const before = await attachmentCount();
      // A role refusal over MCP (docs/protocol.md, "Refusals"): HTTP 200, `isError: true`, no scope challenge.
      const viaMcp = await upload(viewer, valid());
      assert.equal(viaMcp.status, 200, JSON.stringify(viaMcp.body));
      assert.equal(viaMcp.isError, true);
      assert.equal(viaMcp.headers.get('www-authenticate'), null);
      assert.equal(viaMcp.envelope.ok, false);
      assert.deepEqual(viaMcp.envelope.errors, [
        {
          code: 'forbidden_by_role',
          message: 'Your role does not allow billing:write in this workspace; ask a workspace admin',
          retryable: false,
        },
      ]);
      assert.equal((await rest(viewer, 'POST', '/v1/attachments', valid())).status, 403);
      assert.equal(await attachmentCount(), before);
    });
  });

  describe('workspace isolation', () => {
    it("neither workspace can see, fetch or link to the other's files and records", async () => {
      const mine = await upload(accountant, {
        filename: 'demo-only.txt',
        content_type: 'text/plain',
        content_base64: Buffer.from('demo secret').toString('base64'),
      });
      const theirs = await upload(other, {
        filename: 'other-only.txt',
        content_type: 'text/plain',
        content_base64: Buffer.from('other secret').toString('base64'),
        invoice_id: otherInvoiceId,
      });
      assert.equal(theirs.envelope.ok, true, JSON.stringify(theirs.envelope.errors));
      const mineId = mine.envelope.data.id;
      const theirsId = theirs.envelope.data.id;

      for (const [token, id] of [
        [readOnlyOther, mineId],
        [viewer, theirsId],
      ] as const) {
        assert.equal((await download(token, id)).envelope.errors[0].code, 'not_found');
        assert.equal((await rest(token, 'GET', `/v1/attachments/${id}`)).status, 404);
        const bytes = await fetchBytes(token, `/v1/attachments/${id}/content`);
        assert.equal(bytes.status, 404);
        assert.ok(!bytes.bytes.toString().includes('secret'));
      }
      assert.equal((await download(readOnlyOther, theirsId)).envelope.ok, true);

      // Links must point into the caller's own workspace.
      const before = await attachmentCount();
      assert.equal(
        (await upload(other, { filename: 'x.txt', content_type: 'text/plain', content_base64: 'eA==', invoice_id: invoiceId })).envelope
          .errors[0].code,
        'not_found',
      );
      assert.equal(
        (await upload(other, { filename: 'x.txt', content_type: 'text/plain', content_base64: 'eA==', payment_id: paymentId })).envelope
          .errors[0].code,
        'not_found',
      );
      assert.equal(
        (await upload(accountant, { filename: 'x.txt', content_type: 'text/plain', content_base64: 'eA==', invoice_id: otherInvoiceId }))
          .envelope.errors[0].code,
        'not_found',
      );
      assert.equal(await attachmentCount(), before);
    });
  });
});
