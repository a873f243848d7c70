import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentDisposition, FILENAME_PATTERN, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_LABEL } from './attachment-files.js';

describe('attachment files', () => {
  it('caps files at 10 MiB and says so', () => {
    assert.equal(MAX_ATTACHMENT_BYTES, 10_485_760);
    assert.equal(MAX_ATTACHMENT_LABEL, '10 MiB (10485760 bytes)');
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
