import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import { McpApprovalViewSecrets } from './approval-view-secrets.js';

const ID = '7d9f3c1e-2b4a-4c8e-9f10-123456789abc';
const secrets = (secret?: string) => new McpApprovalViewSecrets(resolveMcpOptions(secret ? { requestState: { secret } } : {}));

describe('McpApprovalViewSecrets', () => {
  it('gives one approval the same secret on every replica that shares requestState.secret, and another approval another', () => {
    const a = secrets('shared key of the replicas, 32 bytes or more');
    const b = secrets('shared key of the replicas, 32 bytes or more');
    assert.equal(a.secretFor(ID), b.secretFor(ID));
    assert.equal(a.secretFor(ID.toUpperCase()), a.secretFor(ID), 'the id is read case-insensitively, as the approval tables do');
    assert.notEqual(a.secretFor(ID), a.secretFor(ID.replace(/c$/, 'd')));
    assert.match(a.secretFor(ID), /^[A-Za-z0-9_-]{43}$/);
  });

  it("accepts only the approval's own secret", () => {
    const a = secrets('shared key of the replicas, 32 bytes or more');
    assert.equal(a.verify(ID, a.secretFor(ID)), true);
    assert.equal(a.verify(ID, secrets('another key, another server, 32+ bytes').secretFor(ID)), false);
    assert.equal(a.verify(ID, a.secretFor(ID.replace(/c$/, 'd'))), false);
    for (const wrong of ['', 'x', `${a.secretFor(ID)}x`, undefined, null, 42, { secret: a.secretFor(ID) }]) {
      assert.equal(a.verify(ID, wrong), false, JSON.stringify(wrong));
    }
  });

  it('without a configured secret, keys each process apart (one replica only, as requestState)', () => {
    assert.notEqual(secrets().secretFor(ID), secrets().secretFor(ID));
  });
});
