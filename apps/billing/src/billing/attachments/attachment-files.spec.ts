import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attachmentPartUri,
  attachmentUri,
  contentDisposition,
  FILENAME_PATTERN,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_LABEL,
  sizeLabel,
} from './attachment-files.js';

describe('attachment files', () => {
  it('caps files at 10 MiB and says so', () => {
    assert.equal(MAX_ATTACHMENT_BYTES, 10_485_760);
    assert.equal(MAX_ATTACHMENT_LABEL, '10 MiB (10485760 bytes)');
  });

  it('states limits in the largest whole unit, with the exact byte count', () => {
    assert.equal(sizeLabel(1024 ** 3), '1 GiB (1073741824 bytes)');
    assert.equal(sizeLabel(3 * 1024 ** 2), '3 MiB (3145728 bytes)');
    assert.equal(sizeLabel(1536 * 1024), '1.50 MiB (1572864 bytes)');
    assert.equal(sizeLabel(500), '500 bytes');
  });

  it('names the MCP resources of a file and of its parts', () => {
    const id = '3f2b0c9e-2d4a-4f8e-9c1b-7a5d3e2f1a0b';
    assert.equal(attachmentUri(id), `billing://attachments/${id}`);
    assert.equal(attachmentPartUri(id, 2), `billing://attachments/${id}/parts/2`);
  });

  it('accepts bare file names only', () => {
    for (const ok of ['receipt.pdf', 'recibo de pago (mayo).PDF', 'factura_ñandú.xml', '.hidden']) assert.ok(FILENAME_PATTERN.test(ok), ok);
    for (const bad of ['../etc/passwd', 'a/b.pdf', 'a\\b.pdf', '.', '..', 'line\nbreak.pdf', ''])
      assert.ok(!FILENAME_PATTERN.test(bad), JSON.stringify(bad));
  });

  it('builds an attachment Content-Disposition with a safe ASCII name and the exact UTF-8 name', () => {
    assert.equal(contentDisposition('receipt.pdf'), `attachment; filename="receipt.pdf"; filename*=UTF-8''receipt.pdf`);
    assert.equal(
      contentDisposition('recibo "mayo";ñ.pdf'),
      `attachment; filename="recibo _mayo__n.pdf"; filename*=UTF-8''recibo%20%22mayo%22%3B%C3%B1.pdf`,
    );
    assert.equal(contentDisposition('..\r\n.pdf'), `attachment; filename="__.pdf"; filename*=UTF-8''..%0D%0A.pdf`);
    assert.equal(contentDisposition('日本'), `attachment; filename="__"; filename*=UTF-8''%E6%97%A5%E6%9C%AC`);
  });
});
